package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bitina.run.Report;
import org.bitina.run.TrafficReport;
import org.bitina.scenario.Schedule;
import org.bitina.usecase.traffic.TrafficFigures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's and the HTML page's background-traffic table (T3): a row per entry and world, and alone. */
class TrafficSummaryTest {
    private static Report report(List<TrafficReport> traffic) {
        return new Report(
                "s.conf", "virtual", List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), null, List.of(),
                List.of(), List.of(), List.of(), traffic, Map.of());
    }

    private static final List<TrafficReport> ROWS = List.of(
            new TrafficReport(
                    0,
                    "permutation",
                    Schedule.World.INA,
                    false,
                    116,
                    115,
                    7_467_068,
                    21.1,
                    49.0,
                    51.6,
                    30.0,
                    1.63,
                    42,
                    3,
                    30,
                    9,
                    List.of("flow 7 h3->h9: no acknowledgement of packet 2 of 16 after 16 sends; given up"),
                    null),
            new TrafficReport(
                    0,
                    "permutation",
                    null,
                    true,
                    116,
                    116,
                    7_602_176,
                    15.1,
                    30.0,
                    30.1,
                    null,
                    null,
                    0,
                    0,
                    0,
                    0,
                    List.of(),
                    null));

    @Test
    void theConsolePrintsARowPerEntryAndWorldAndOneAlone() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TrafficSummary.print(report(ROWS), new PrintStream(b, true, StandardCharsets.UTF_8), false);
        List<String> lines = b.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(0).startsWith("background traffic:"), lines.toString());
        String ina = lines.stream().filter(l -> l.contains(" ina ")).findFirst().orElseThrow();
        assertTrue(
                ina.matches("1: permutation\\s+ina\\s+116\\s+115\\s+42\\s+7467068\\s+21.1 µs\\s+49.0 µs\\s+1.63x"),
                ina);
        assertTrue(
                lines.contains(
                        "  traffic 1 (ina): flow 7 h3->h9: no acknowledgement of packet 2 of 16 after 16 sends; given up"),
                lines.toString());
        String alone =
                lines.stream().filter(l -> l.contains(" alone ")).findFirst().orElseThrow();
        assertTrue(alone.trim().endsWith("30.0 µs         -"), alone);
    }

    @Test
    void nothingIsPrintedWithoutTraffic() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TrafficSummary.print(report(List.of()), new PrintStream(b, true, StandardCharsets.UTF_8), false);
        assertEquals("", b.toString(StandardCharsets.UTF_8));
        StringBuilder html = new StringBuilder();
        TrafficSummary.append(html, report(List.of()));
        assertEquals("", html.toString());
    }

    @Test
    void theHtmlPageHasTheSameTable() {
        StringBuilder html = new StringBuilder();
        TrafficSummary.append(html, report(ROWS));
        String s = html.toString();
        assertTrue(s.startsWith("<section class=\"traffic\"><h2>Background traffic</h2>"), s);
        assertTrue(
                s.contains("<tr><td>1: permutation</td><td>ina</td><td>116</td><td>115</td><td>42</td><td>7467068</td>"
                        + "<td>21.1 µs</td><td>49.0 µs</td><td>1.63x</td></tr>"),
                s);
        assertTrue(s.contains("<td>alone</td>") && s.contains("<td>-</td></tr>"), s);
    }

    @Test
    void theAnswerGivesEachEntrysP99PerWorldAndAloneAndDcqcnItsMarksCnpsAndCuts() {
        assertEquals(
                "traffic 1 (permutation): p99 49.0 µs in the ina mix (1.63x its p99 alone); 30.0 µs alone",
                SharedAnswer.traffic(report(ROWS), 0));
        TrafficFigures.Congestion c = new TrafficFigures.Congestion("dcqcn", 738, 320, 317, 0.286097287, null);
        List<TrafficReport> rows = ROWS.stream()
                .map(t -> new TrafficReport(
                        t.entry(),
                        t.kind(),
                        t.world(),
                        t.alone(),
                        t.flows(),
                        t.finished(),
                        t.bytes(),
                        t.fctP50Micros(),
                        t.fctP99Micros(),
                        t.fctMaxMicros(),
                        t.aloneP99Micros(),
                        t.slowdown(),
                        t.retransmissions(),
                        t.timeouts(),
                        t.duplicatesReceived(),
                        t.discardedPastGap(),
                        t.gaveUp(),
                        c))
                .toList();
        assertTrue(SharedAnswer.traffic(report(rows), 0).startsWith("traffic 1 (permutation, dcqcn): p99 49.0 µs"));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TrafficSummary.print(report(rows), new PrintStream(b, true, StandardCharsets.UTF_8), false);
        assertTrue(
                b.toString(StandardCharsets.UTF_8)
                        .contains("  traffic 1 (ina): dcqcn: 738 packets arrived ECN-marked, 320 CNPs, 317 rate cuts,"
                                + " lowest rate 0.286 Gbps"),
                b.toString(StandardCharsets.UTF_8));
        StringBuilder html = new StringBuilder();
        TrafficSummary.append(html, report(rows));
        assertTrue(
                html.toString().contains("<p class=\"congestion\">traffic 1 (alone): dcqcn: 738 packets"),
                html.toString());
    }

    @Test
    void aSweepDrawsTheTrafficsP99PerPoint(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("sweep.html");
        SweepPage.write(
                page,
                "s.conf",
                List.of("congestion.control"),
                List.of(List.of("none"), List.of("dcqcn")),
                List.of(List.of(), List.of()),
                List.of(report(ROWS), report(ROWS)));
        String html = Files.readString(page);
        assertTrue(html.contains("data-chart=\"sweep-traffic-p99\""), html);
        assertTrue(html.contains("traffic 1/ina") && html.contains("traffic 1/alone"), html);
    }
}
