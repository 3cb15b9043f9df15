package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.protocol.TimeCurve;
import org.bitina.run.Report;
import org.bitina.run.TrafficReport;
import org.bitina.scenario.Schedule;
import org.bitina.usecase.traffic.TrafficFigures;
import org.junit.jupiter.api.Test;

/** The page's congestion-control section (issue 45): the senders' rates and the INA windows over modelled time. */
class PaceChartTest {
    private static Report report(TrafficFigures.Congestion c) {
        TrafficReport t = new TrafficReport(
                0, "incast", Schedule.World.INA, false, 10, 10, 1000, 1, 2, 3, null, null, 0, 0, 0, 0, List.of(), c);
        return new Report(
                "s.conf",
                "virtual",
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                null,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(t),
                Map.of());
    }

    @Test
    void drawsTheSlowestSendersRateInGbpsPerIntervalAndNothingWithoutCongestionControl() {
        TimeCurve.Range rate = new TimeCurve.Range(
                2048,
                List.of(new long[] {0, 100_000_000_000L, 100_000_000_000L}, new long[] {2048, 25_000_000_000L, 1L}));
        List<double[]> steps = PaceChart.steps(rate, 1e-9);
        assertArrayEquals(new double[] {0, 100}, steps.get(0), 1e-9);
        assertArrayEquals(new double[] {2.048, 25}, steps.get(1), 1e-9);
        StringBuilder b = new StringBuilder();
        PaceChart.append(b, report(new TrafficFigures.Congestion("dcqcn", 5, 4, 3, 25, rate)));
        String s = b.toString();
        assertTrue(s.startsWith("<section class=\"congestion\"><h2>Congestion control</h2>"), s);
        assertTrue(s.contains("data-chart=\"pace-rates\"") && s.contains("<svg"), s);
        assertTrue(s.contains("traffic 1 ina (mix)"), "the series names its entry and world");
        assertTrue(!s.contains("pace-windows"), "no INA job ran AIMD");
        StringBuilder none = new StringBuilder();
        PaceChart.append(none, report(null));
        assertEquals("", none.toString());
    }
}
