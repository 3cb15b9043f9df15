package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/pandas.md's script runs on fresh outputs (issue 46 item 7): a shared run's jobs.csv and
 * report, a size sweep's sweep.csv, read with pandas, a figure saved. Skipped, saying why, where no
 * python3 has pandas and matplotlib ({@code .ci/run} installs Debian's).
 */
class PandasDocTest {
    /** A python3 that imports pandas and matplotlib: Debian's first (a pyenv shim may lack them), or null. */
    private static String python() throws InterruptedException {
        for (String p : List.of("/usr/bin/python3", "python3")) {
            try {
                Process proc = new ProcessBuilder(p, "-c", "import pandas, matplotlib")
                        .redirectErrorStream(true)
                        .start();
                proc.getInputStream().readAllBytes();
                if (proc.waitFor(60, TimeUnit.SECONDS) && proc.exitValue() == 0) {
                    return p;
                }
            } catch (IOException e) {
                // not there: the next one
            }
        }
        return null;
    }

    @Test
    void theDocsScriptReadsTheCsvsAndTheReportAndSavesAFigure(@TempDir Path dir) throws Exception {
        String python = python();
        assumeTrue(
                python != null,
                "no python3 with pandas and matplotlib here (apt install python3-pandas"
                        + " python3-matplotlib): docs/pandas.md's script not run");
        String doc = Files.readString(Path.of("..", "docs", "pandas.md"));
        int start = doc.indexOf("```python\n");
        assertTrue(start >= 0, "docs/pandas.md has a python block");
        String script = doc.substring(start + "```python\n".length(), doc.indexOf("```", start + 10));
        Path read = dir.resolve("read.py");
        Files.writeString(read, script);
        Path out = dir.resolve("out");
        CliTest.Result run = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "shared-fabric.conf").toString(),
                "--quiet",
                "--csv",
                out.toString(),
                "--report",
                out.resolve("report.json").toString());
        assertEquals(0, run.code(), run.out() + run.err());
        CliTest.Result sweep = CliTest.cli(
                "sweep",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--sizes",
                "4K..8K",
                "--out",
                dir.resolve("sweep").toString());
        assertEquals(0, sweep.code(), sweep.out() + sweep.err());
        Path plot = dir.resolve("speedup.png");
        ProcessBuilder pb = new ProcessBuilder(python, read.toString()).redirectErrorStream(true);
        pb.environment().put("JOBS_CSV", out.resolve("jobs.csv").toString());
        pb.environment().put("REPORT", out.resolve("report.json").toString());
        pb.environment()
                .put("SWEEP_CSV", dir.resolve("sweep").resolve("sweep.csv").toString());
        pb.environment().put("PLOT", plot.toString());
        pb.environment().put("MPLCONFIGDIR", dir.resolve("mpl").toString());
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, p.exitValue(), printed);
        assertTrue(printed.contains("ina speed-up") && printed.contains("fctP99Micros"), printed);
        byte[] png = Files.readAllBytes(plot);
        assertTrue(
                png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G',
                "a PNG of " + png.length + " bytes");
    }
}
