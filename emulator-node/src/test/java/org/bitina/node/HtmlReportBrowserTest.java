package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The HTML report in a real browser: headless Chromium (Debian's package, installed by
 * {@code .ci/run} when missing) loads the page of a Fig. 1 run, and every chart must have drawn
 * (its SVG holds elements and takes room on the page; the heat maps a line per link, the trees
 * an arrow per edge), with no error on the console or from a script. A screenshot is kept as
 * {@code target/html-report/report.png}. Where Chromium is missing or cannot start, skipped saying why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HtmlReportBrowserTest {
    private static final Path OUT = Path.of("target", "html-report");
    private Path page;
    private String chromium;

    /** Counts per chart, taken by the browser once the page has loaded; errors from window.onerror and console.error. */
    private static final String PROBE =
            "<script>window.__e=[];addEventListener('error',e=>__e.push('error: '+e.message));"
                    + "const __ce=console.error;console.error=(...a)=>{__e.push('console: '+a.join(' '));__ce(...a)};"
                    + "addEventListener('load',()=>{const o=[];document.querySelectorAll('figure.chart').forEach(f=>{const s=f.querySelector('svg');"
                    + "const r=s?s.getBoundingClientRect():{width:0,height:0};o.push([f.dataset.chart,s?s.querySelectorAll('*').length:0,"
                    + "Math.round(r.width),Math.round(r.height),s?s.querySelectorAll('line.link').length:0,s?s.querySelectorAll('path.tree').length:0,"
                    + "s?s.querySelectorAll('path,rect,line,circle,text,polyline').length:0,"
                    + "f.querySelectorAll('.colour-bar').length].join(' | '))});"
                    // the answer sentences, and every element reaching past the page's right edge
                    + "const a=[...document.querySelectorAll('.answer-sentence')].map(x=>x.textContent);"
                    + "const W=document.documentElement.clientWidth;const w=[];document.querySelectorAll('body *').forEach(x=>{"
                    + "const r=x.getBoundingClientRect();if(r.right>W+1)w.push(x.tagName+(x.id?'#'+x.id:'')+' '+Math.round(r.right))});"
                    // each zoom control, clicked as a reader would: the viewBox before, after "+", after "reset"
                    + "const z=[...document.querySelectorAll('.zoom-control')].map(c=>{const s=document.getElementById(c.dataset.for);"
                    + "const v=()=>s.getAttribute('viewBox');const b=v();c.querySelector('[data-zoom=in]').click();const i=v();"
                    + "c.querySelector('[data-zoom=reset]').click();return c.closest('figure').dataset.chart+' | '+b+' | '+i+' | '+v()});"
                    + "const p=document.createElement('pre');p.id='bitina-probe';p.textContent='ANSWER '+a.join(' || ')+'\\nWIDE '+w.slice(0,5).join(', ')"
                    + "+'\\nCHARTS\\n'+o.join('\\n')+'\\nERRORS\\n'+__e.join('\\n')"
                    + "+'\\nEND\\nZOOM\\n'+z.join('\\n')+'\\nZOOMEND';document.body.appendChild(p)});</script>";

    @BeforeAll
    void runFig1WithHtml() throws IOException, InterruptedException {
        chromium = findChromium();
        Assumptions.assumeTrue(
                chromium != null, "no chromium on the PATH (apt-get install chromium; .ci/run installs it)");
        String why = probeChromium(chromium);
        Assumptions.assumeTrue(why == null, "chromium cannot run here: " + why);
        Files.createDirectories(OUT);
        page = OUT.resolve("report.html");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--quiet",
                "--html",
                page.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("html:   " + page), r.out());
    }

    private static String findChromium() {
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    private record Ran(int code, String out, String err) {}

    private Ran chromium(String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("bitina-chromium");
        List<String> cmd = new ArrayList<>(List.of(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--enable-logging=stderr",
                "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("chromium", ".out");
        Path err = Files.createTempFile("chromium", ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return new Ran(-1, Files.readString(out), "timed out after 90 s; " + Files.readString(err));
        }
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Null when chromium renders a trivial page, else why not. */
    private String probeChromium(String binary) throws IOException, InterruptedException {
        Path blank = Files.createTempFile("blank", ".html");
        Files.writeString(blank, "<html><body><p id=x>ok</p></body></html>");
        Ran r = chromium("--dump-dom", blank.toUri().toString());
        return r.code() == 0 && r.out().contains("id=\"x\"") ? null : "exit " + r.code() + ": " + last(r.err(), 400);
    }

    private static String last(String s, int n) {
        return s.length() <= n ? s : s.substring(s.length() - n);
    }

    /**
     * Per chart of the page as Chromium drew it: SVG elements, width, height, link lines, tree
     * arrows, shapes; fails on a script or console error, or a resource the page tried to load.
     */
    private Map<String, int[]> drawn(Path page) throws IOException, InterruptedException {
        String html = Files.readString(page);
        assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), "the page loads nothing from the network");
        Path probed = page.resolveSibling(page.getFileName().toString().replace(".html", "-probed.html"));
        Files.writeString(probed, html.replace("<head>", "<head>" + PROBE), StandardCharsets.UTF_8);
        Ran r = chromium(
                "--virtual-time-budget=10000",
                "--window-size=1400,2000",
                "--dump-dom",
                probed.toUri().toString());
        assertEquals(0, r.code(), r.err());
        String dom = r.out();
        int from = dom.indexOf("CHARTS\n");
        int to = dom.indexOf("\nEND", from);
        assertTrue(from >= 0 && to > from, "the probe ran: " + last(dom, 500));
        String[] parts = dom.substring(from + 7, to).split("\nERRORS\n?", -1);
        int answer = dom.lastIndexOf("ANSWER ", from);
        String[] head = dom.substring(answer + 7, from).split("\nWIDE ?", -1);
        lastAnswer = head[0].trim();
        lastZoom = new LinkedHashMap<>();
        int zoom = dom.indexOf("\nZOOM\n", to);
        for (String line :
                dom.substring(zoom + 6, dom.indexOf("\nZOOMEND", zoom)).split("\n")) {
            if (!line.isBlank()) {
                String[] f = line.split(" \\| ");
                lastZoom.put(f[0], new String[] {f[1], f[2], f[3]});
            }
        }
        assertEquals(
                "",
                head.length > 1 ? head[1].trim() : "?",
                "no element reaches past the page's right edge at 1,400 px");
        Map<String, int[]> charts = new LinkedHashMap<>();
        for (String line : parts[0].split("\n")) {
            String[] f = line.split(" \\| ");
            charts.put(f[0], new int[] {
                Integer.parseInt(f[1]),
                Integer.parseInt(f[2]),
                Integer.parseInt(f[3]),
                Integer.parseInt(f[4]),
                Integer.parseInt(f[5]),
                Integer.parseInt(f[6]),
                Integer.parseInt(f[7])
            });
        }
        assertEquals("", parts.length > 1 ? parts[1].trim() : "", "no script or console error");
        for (String line : r.err().split("\n")) {
            assertFalse(
                    line.contains("CONSOLE") && line.toLowerCase(Locale.ROOT).contains("error"), line);
            assertFalse(line.contains("Failed to load resource"), line);
        }
        charts.forEach((name, c) -> {
            if (name.startsWith("heat-")) {
                assertEquals(2, c[6], name + ": a colour bar for the links and one for the switches' fill");
            }
        });
        return charts;
    }

    /** The answer sentences of the page {@link #drawn} last probed, joined by " || ". */
    private String lastAnswer;

    /** Per chart with a zoom control on the page {@link #drawn} last probed: its viewBox, after "+", after "reset". */
    private Map<String, String[]> lastZoom;

    @Test
    void everyChartOfTheFig1PageDrawsInChromiumWithoutAConsoleError() throws IOException, InterruptedException {
        Map<String, int[]> charts = drawn(page);
        // the page opens with the answer, from the report's speedup
        assertTrue(
                lastAnswer.matches("fig1: ina finished in [0-9.]+ [µm]?s, [0-9.]+x (faster|slower) than .*"
                        + "; it moved [0-9.]+ % of [a-z-]+'s bytes .*; busiest link .*"),
                lastAnswer);
        // Fig. 1 runs INA, ring and ps: four comparison charts and INA's ratios to each, the CDF, the soft state, three
        // heat maps and the VAT
        assertEquals(
                List.of(
                        "bars-modelled-time",
                        "bars-max-link-bytes",
                        "bars-total-link-bytes",
                        "bars-packets-into-the-busiest-host",
                        "ratio-fig1",
                        "cdf-fig1",
                        "state-fig1",
                        "heat-fig1-ina",
                        "heat-fig1-ring",
                        "heat-fig1-ps",
                        "trees-fig1-ina"),
                List.copyOf(charts.keySet()));
        charts.forEach((name, c) -> {
            assertTrue(c[0] >= 30 && c[5] >= 20, name + " drew " + c[0] + " SVG elements, " + c[5] + " shapes");
            assertTrue(c[1] >= 300 && c[2] >= 200, name + " takes " + c[1] + " x " + c[2] + " px");
        });
        for (String heat : List.of("heat-fig1-ina", "heat-fig1-ring", "heat-fig1-ps")) {
            assertEquals(14, charts.get(heat)[3], heat + ": a line per link of Fig. 1");
        }
        // s1 = [11000000] over w1, w2; s7 = [00110000] over w3, w4; s6 = [11110000] over s1, s7
        assertEquals(6, charts.get("trees-fig1-ina")[4], "an arrow per member and per VAT child");
        assertEquals(Map.of(), lastZoom, "Fig. 1's drawings are readable at page width: no zoom control");
        Path png = OUT.resolve("report.png");
        Files.deleteIfExists(png);
        Ran shot = chromium(
                "--hide-scrollbars",
                "--window-size=1400,2600",
                "--screenshot=" + png.toAbsolutePath(),
                page.toUri().toString());
        assertEquals(0, shot.code(), shot.err());
        assertTrue(Files.size(png) > 50_000, "a screenshot of a drawn page: " + Files.size(png) + " bytes");
    }

    @Test
    void theK8PageOpensWithTheAnswerAndFitsA1400PxWindow() throws IOException, InterruptedException {
        Path k8 = OUT.resolve("k8.html");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "fat-tree-k8-allreduce.conf").toString(),
                "--set",
                "data.elements=16384",
                "--quiet",
                "--html",
                k8.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        Map<String, int[]> charts = drawn(k8); // nothing past the right edge, a colour bar on every heat map
        assertTrue(lastAnswer.startsWith("ft8: ina finished in ") && lastAnswer.contains("than ring ("), lastAnswer);
        assertTrue(
                charts.containsKey("heat-ft8-ina") && charts.containsKey("heat-ft8-ring"),
                charts.keySet().toString());
        // too big to read at page width: every topology drawing zooms, "+" halves the view, "reset" restores it
        List<String> drawings = charts.keySet().stream()
                .filter(k -> k.startsWith("heat-") || k.startsWith("trees-"))
                .toList();
        assertEquals(drawings, List.copyOf(lastZoom.keySet()), "a zoom control on each topology drawing");
        lastZoom.forEach((name, v) -> {
            double[] whole = viewBox(v[0]);
            double[] in = viewBox(v[1]);
            assertEquals(whole[2] / 2, in[2], 0.1, name + ": zoomed in twice as close: " + v[0] + " -> " + v[1]);
            assertEquals(whole[3] / 2, in[3], 0.1, name + ": the same aspect");
            assertTrue(in[0] > whole[0] && in[1] > whole[1], name + ": about the centre: " + v[1]);
            assertEquals(v[0], v[2], name + ": reset shows the whole drawing again");
        });
        // 128 hosts in one row: labelled upright, 80 switches: each named
        String html = Files.readString(k8);
        int heat = html.indexOf("data-chart=\"heat-ft8-ina\"");
        String svg = html.substring(heat, html.indexOf("</svg>", heat));
        assertEquals(128 + 80, svg.split("class=\"name\"", -1).length - 1, "every node named in the heat map");
    }

    private static double[] viewBox(String v) {
        String[] f = v.trim().split("[ ,]+");
        double[] out = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            out[i] = Double.parseDouble(f[i]);
        }
        return out;
    }

    @Test
    void theCbmTreeTheFig2PacketsBuiltDrawsInChromiumAsObserved() throws IOException, InterruptedException {
        Path moe = OUT.resolve("fig2.html");
        CliTest.Result r = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig2-moe.conf").toString(),
                "--quiet",
                "--html",
                moe.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        Map<String, int[]> charts = drawn(moe);
        int[] c = charts.get("observed-fig2-ina");
        assertTrue(c != null, "the observed C-BM tree is on the page: " + charts.keySet());
        assertTrue(
                c[0] >= 30 && c[1] >= 300 && c[2] >= 200,
                "it drew: " + c[0] + " SVG elements, " + c[1] + " x " + c[2] + " px");
        assertEquals(11, c[3], "a line per link of Fig. 2's topology");
        // s1 and s7 combine into s0, s0 into the source, e1..e4 into s1 and e5..e8 into s7
        assertEquals(11, c[4], "an arrow per observed branch and per expert");
    }

    @Test
    void theSweepPageOfThreeSizesDrawsEveryMetricWithALinePerMode() throws IOException, InterruptedException {
        Path out = OUT.resolve("sweep");
        CliTest.Result r = CliTest.cli(
                "sweep",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--set",
                "data.elements=1024,4096,16384",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(
                1 + 3 * 3, Files.readAllLines(out.resolve("sweep.csv")).size(), "three points of ina, ring and ps");
        Map<String, int[]> charts = drawn(out.resolve("sweep.html"));
        assertEquals(
                List.of(
                        "sweep-speedup",
                        "sweep-modelled-time",
                        "sweep-max-link-bytes",
                        "sweep-total-link-bytes",
                        "sweep-packets-into-the-busiest-host",
                        "sweep-algorithm-bandwidth",
                        "sweep-bus-bandwidth"),
                List.copyOf(charts.keySet()),
                "timeouts are 0 at every point: not drawn");
        assertTrue(Files.readString(out.resolve("sweep.html")).contains("0 at every point, not drawn: timeouts."));
        charts.forEach((name, c) -> {
            // three lines of three points each, with axes and a legend
            assertTrue(c[0] >= 40 && c[5] >= 30, name + " drew " + c[0] + " SVG elements, " + c[5] + " shapes");
            assertTrue(c[1] >= 300 && c[2] >= 200, name + " takes " + c[1] + " x " + c[2] + " px");
        });
        Ran shot = chromium(
                "--hide-scrollbars",
                "--window-size=1200,1400",
                "--screenshot=" + out.resolve("sweep.png").toAbsolutePath(),
                out.resolve("sweep.html").toUri().toString());
        assertEquals(0, shot.code(), shot.err());
    }
}
