package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Background traffic's flows: Poisson arrivals at the load of each sender's link, seeded, per pattern. */
class TrafficFlowsTest {
    private static final long GBPS_100 = 100_000_000_000L;
    private static final List<String> HOSTS =
            IntStream.rangeClosed(1, 16).mapToObj(i -> "h" + i).toList();

    private static TrafficFlows.Spec spec(TrafficFlows.Kind kind, String to, double load, long stop, long seed) {
        return new TrafficFlows.Spec(kind, HOSTS, to, load, 64 * 1024, 0, stop, seed);
    }

    @Test
    void eachSenderOffersItsLoadOfTheLinkRateOverALongRun() {
        long stop = 200_000_000; // 200 ms: about 11,400 flows of 64 KiB per sender at 30 % of 100 Gbps
        List<TrafficFlows.Flow> flows =
                TrafficFlows.flows(spec(TrafficFlows.Kind.UNIFORM, null, 0.3, stop, 3), h -> GBPS_100);
        Map<String, Long> bytes = new HashMap<>();
        flows.forEach(f -> bytes.merge(f.from(), f.bytes(), Long::sum));
        assertEquals(HOSTS.size(), bytes.size());
        for (Map.Entry<String, Long> e : bytes.entrySet()) {
            double offered = e.getValue() * 8e9 / stop / GBPS_100;
            // a Poisson count of ~11,400 has a standard deviation under 1 %: 0.012 is four of them
            assertEquals(0.3, offered, 0.012, e.getKey() + " offers " + offered);
        }
    }

    @Test
    void theGapsAreExponentialTheirMeanAndSpreadAlike() {
        long stop = 500_000_000; // about 47,700 gaps: the mean's error ~0.5 %, the spread's ~0.7 %
        List<TrafficFlows.Flow> h1 =
                TrafficFlows.flows(spec(TrafficFlows.Kind.PERMUTATION, null, 0.5, stop, 9), h -> GBPS_100).stream()
                        .filter(f -> f.from().equals("h1"))
                        .toList();
        double mean = 64 * 1024 * 8e9 / (0.5 * GBPS_100);
        double sum = 0;
        double squares = 0;
        for (int i = 1; i < h1.size(); i++) {
            double gap = h1.get(i).startNanos() - h1.get(i - 1).startNanos();
            sum += gap;
            squares += gap * gap;
        }
        int gaps = h1.size() - 1;
        double m = sum / gaps;
        double sd = Math.sqrt(squares / gaps - m * m);
        assertEquals(mean, m, mean * 0.03, "mean gap");
        assertEquals(m, sd, m * 0.05, "an exponential's standard deviation is its mean");
    }

    @Test
    void theSameSeedGivesTheSameFlowsAndAnotherSeedOthers() {
        var a = TrafficFlows.flows(spec(TrafficFlows.Kind.UNIFORM, null, 0.3, 500_000, 3), h -> GBPS_100);
        var b = TrafficFlows.flows(spec(TrafficFlows.Kind.UNIFORM, null, 0.3, 500_000, 3), h -> GBPS_100);
        var c = TrafficFlows.flows(spec(TrafficFlows.Kind.UNIFORM, null, 0.3, 500_000, 4), h -> GBPS_100);
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    @Test
    void flowsAreNumberedInStartOrderInsideTheirWindow() {
        var spec =
                new TrafficFlows.Spec(TrafficFlows.Kind.ALL_TO_ALL, HOSTS, null, 0.3, 64 * 1024, 100_000, 600_000, 5);
        var flows = TrafficFlows.flows(spec, h -> GBPS_100);
        assertTrue(flows.size() > 100, "16 senders, ~29 flows each");
        for (int i = 0; i < flows.size(); i++) {
            TrafficFlows.Flow f = flows.get(i);
            assertEquals(i, f.index());
            assertTrue(f.startNanos() >= 100_000 && f.startNanos() < 600_000, f.toString());
            if (i > 0) {
                assertTrue(f.startNanos() >= flows.get(i - 1).startNanos());
            }
            assertNotEquals(f.from(), f.to());
        }
    }

    @Test
    void aPermutationSendsEachHostToOneOtherAndEachReceivesFromOne() {
        var flows = TrafficFlows.flows(spec(TrafficFlows.Kind.PERMUTATION, null, 0.3, 1_000_000, 3), h -> GBPS_100);
        Map<String, String> pairs = new HashMap<>();
        for (TrafficFlows.Flow f : flows) {
            assertNotEquals(f.from(), f.to(), "no host sends to itself");
            String before = pairs.putIfAbsent(f.from(), f.to());
            assertTrue(before == null || before.equals(f.to()), f.from() + " sends to one host only");
        }
        assertEquals(HOSTS.size(), pairs.size());
        assertEquals(HOSTS.size(), new HashSet<>(pairs.values()).size(), "each host receives from one");
    }

    @Test
    void anIncastSendsEveryOtherHostToItsDestinationAndUniformNeverToItself() {
        var incast = TrafficFlows.flows(spec(TrafficFlows.Kind.INCAST, "h1", 0.3, 1_000_000, 3), h -> GBPS_100);
        Set<String> senders = new HashSet<>();
        incast.forEach(f -> {
            assertEquals("h1", f.to());
            senders.add(f.from());
        });
        assertEquals(HOSTS.size() - 1, senders.size());
        assertTrue(!senders.contains("h1"));
        var uniform = TrafficFlows.flows(spec(TrafficFlows.Kind.UNIFORM, null, 0.3, 1_000_000, 3), h -> GBPS_100);
        Set<String> reached = new HashSet<>();
        uniform.forEach(f -> {
            assertNotEquals(f.from(), f.to());
            reached.add(f.to());
        });
        assertEquals(HOSTS.size(), reached.size(), "every host is drawn as a destination");
    }

    @Test
    void aSlowerLinkSendsFewerFlowsAtTheSameLoad() {
        var flows = TrafficFlows.flows(
                spec(TrafficFlows.Kind.UNIFORM, null, 0.3, 100_000_000, 3),
                h -> h.equals("h2") ? GBPS_100 / 4 : GBPS_100);
        long h1 = flows.stream().filter(f -> f.from().equals("h1")).count();
        long h2 = flows.stream().filter(f -> f.from().equals("h2")).count();
        // ~5,700 flows against ~1,400: the ratio's standard deviation is about 0.12
        assertEquals(4.0, (double) h1 / h2, 0.4, h1 + " against " + h2);
    }

    @Test
    void badEntriesAreRefusedSayingWhy() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> spec(TrafficFlows.Kind.INCAST, null, 0.3, 1, 1))
                .getMessage()
                .contains("incast needs 'to'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> spec(TrafficFlows.Kind.UNIFORM, "h1", 0.3, 1, 1))
                .getMessage()
                .contains("only incast has 'to'"));
        assertThrows(IllegalArgumentException.class, () -> spec(TrafficFlows.Kind.UNIFORM, null, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> spec(TrafficFlows.Kind.UNIFORM, null, 1.5, 1, 1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrafficFlows.Kind.fromConfig("burst"))
                .getMessage()
                .contains("unknown traffic kind 'burst'"));
        assertEquals(TrafficFlows.Kind.ALL_TO_ALL, TrafficFlows.Kind.fromConfig("all-to-all"));
    }
}
