package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an independent tester broke: each bad file, output path and option is refused before
 * anything runs, with exit 2 and a {@code FILE:LINE:} line or a one-line usage error, within
 * seconds (a refused run takes no actor system: the timeouts would catch one that started).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class HardeningCliTest {
    @TempDir
    Path dir;

    private static final Path FIG1 = Path.of("..", "topology-configs", "paper-fig1-allreduce.conf");

    private static void refused(CliTest.Result r, String expected) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
        assertEquals("", r.out(), "nothing ran, nothing printed on stdout");
    }

    @Test
    void validateRefusesAFileThatIncludesItself() throws IOException {
        Path f = dir.resolve("self.conf");
        Files.writeString(f, "include \"self\"\ntopology {}\n");
        refused(
                CliTest.cli("validate", f.toString()),
                f + ":1: include \"self\": include cycle: self.conf -> self.conf");
    }

    @Test
    void validateRefusesTwoFilesThatIncludeEachOther() throws IOException {
        Files.writeString(dir.resolve("a.conf"), "include \"b\"\n");
        Files.writeString(dir.resolve("b.conf"), "# b\ninclude \"a\"\n");
        refused(
                CliTest.cli("validate", dir.resolve("a.conf").toString()),
                dir.resolve("b.conf") + ":2: include \"a\": include cycle: a.conf -> b.conf -> a.conf");
    }

    @Test
    void validateRefusesTenThousandNestedObjectsAtTheirLine() throws IOException {
        Path f = dir.resolve("deep.conf");
        Files.writeString(f, "# deep\ntopology = " + "{a = ".repeat(10_000) + "1" + "}".repeat(10_000) + "\n");
        refused(CliTest.cli("validate", f.toString()), f + ":2: objects and lists nested more than 64 deep");
    }

    @Test
    void validateRefusesAnIncludedFileNestedTooDeeply() throws IOException {
        Files.writeString(dir.resolve("deep.conf"), "x = " + "[".repeat(5_000) + "]".repeat(5_000) + "\n");
        Path f = dir.resolve("top.conf");
        Files.writeString(f, "include \"deep\"\n");
        refused(CliTest.cli("validate", f.toString()), "deep.conf:1: objects and lists nested more than 64 deep");
    }

    @Test
    void validateSaysWhatAFolderOrADeviceIsInsteadOfNoSuchFile() {
        refused(CliTest.cli("validate", dir.toString()), dir + ":1: is a folder, not a scenario file");
        refused(CliTest.cli("validate", "/dev/null"), "/dev/null:1: is not a regular file");
        refused(CliTest.cli("validate", dir.resolve("none.conf").toString()), "none.conf:1: no such file");
    }

    @Test
    void validateRefusesAFifoWithoutBlockingOnIt() throws Exception {
        Path fifo = dir.resolve("fifo.conf");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor());
        refused(CliTest.cli("validate", fifo.toString()), fifo + ":1: is not a regular file");
    }

    @Test
    void runRefusesOutputsThatCannotBeWrittenBeforeAnythingRuns() {
        String fig1 = FIG1.toString();
        refused(CliTest.cli("run", fig1, "--report", "/proc/x.json"), "--report /proc/x.json: cannot be created");
        refused(CliTest.cli("run", fig1, "--html", "/proc/x.html"), "--html /proc/x.html: cannot be created");
        refused(CliTest.cli("run", fig1, "--trace", "/proc/x.jsonl"), "--trace /proc/x.jsonl: cannot be created");
        refused(CliTest.cli("run", fig1, "--report", "/dev/full"), "--report /dev/full: is not a regular file");
        refused(CliTest.cli("run", fig1, "--perfetto", "/proc/p.json"), "--perfetto /proc/p.json: cannot be created");
        refused(CliTest.cli("run", fig1, "--csv", "/proc/csv"), "--csv /proc/csv/jobs.csv: cannot make folder");
        refused(
                CliTest.cli(
                        "run",
                        fig1,
                        "--report",
                        dir.resolve("no").resolve("such").resolve("r.json").toString()),
                "does not exist");
    }

    @Test
    void runRefusesAReportThatWouldOverwriteTheScenario() throws IOException {
        Path f = CliTest.fig1AcrossJvms(dir);
        String before = Files.readString(f);
        refused(CliTest.cli("run", f.toString(), "--report", f.toString()), "is the scenario file itself");
        refused(
                CliTest.cli(
                        "run",
                        f.toString(),
                        "--html",
                        dir.resolve(".").resolve(f.getFileName()).toString()),
                "is the scenario file itself");
        assertEquals(before, Files.readString(f));
        Path r = dir.resolve("r.json");
        refused(
                CliTest.cli("run", f.toString(), "--report", r.toString(), "--html", r.toString()),
                "is also --report's file");
        assertFalse(Files.exists(r), "the probe leaves nothing behind");
    }

    @Test
    void runRefusesOptionValuesOutOfRangeInOneLine() {
        String fig1 = FIG1.toString();
        refused(CliTest.cli("run", fig1, "--members", "0", "--insecure"), "bitina: --members must be from 1 to 64");
        refused(CliTest.cli("run", fig1, "--members", "-3", "--insecure"), "bitina: --members must be from 1 to 64");
        refused(CliTest.cli("run", fig1, "--perfetto-seqs", "-5"), "bitina: --perfetto-seqs must be 0 or more, got -5");
        refused(
                CliTest.cli("run", fig1, "--members", "2", "--port", "70000", "--insecure"),
                "--port must be from 1 to 65535");
        refused(CliTest.cli("run", fig1, "--members", "2", "--jvms", "2", "--insecure"), "exclude each other");
    }

    @Test
    void aDurationWithoutAUnitIsAProblemNotMilliseconds() throws IOException {
        Path f = dir.resolve("bare.conf");
        Files.writeString(
                f,
                Files.readString(FIG1)
                        .replace(
                                "include \"defaults\"",
                                "include file(\""
                                        + FIG1.resolveSibling("defaults.conf").toAbsolutePath() + "\")")
                        .replaceAll("completion-timeout = \\d+ms", "completion-timeout = 50"));
        CliTest.Result r = CliTest.cli("validate", f.toString());
        refused(r, "completion-timeout: duration 50 has no unit (write a number with a unit: ns, us, ms, s)");
        assertTrue(r.err().startsWith(f + ":"), r.err());
    }

    @Test
    void aBadValueIsShownWithoutHoconsOriginComments() throws IOException {
        Path f = dir.resolve("list.conf");
        Files.writeString(
                f,
                Files.readString(FIG1)
                        .replace(
                                "include \"defaults\"",
                                "include file(\""
                                        + FIG1.resolveSibling("defaults.conf").toAbsolutePath() + "\")")
                        .replaceAll("completion-timeout = \\d+ms", "completion-timeout = [1, 2]"));
        CliTest.Result r = CliTest.cli("validate", f.toString());
        refused(r, "bad duration [1, 2] (write");
        assertFalse(r.err().contains("#"), r.err());
    }
}
