package org.bitina.usecase.allreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Frame;
import org.bitina.protocol.NodeEngine;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Phase;
import org.bitina.usecase.References;
import org.bitina.usecases.PhasePlanner;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2 on the real planner, engines and workers, wired by a small loop in this test (no actors, so
 * that every result a worker takes can be looked at): the same int32 job as one tree and over
 * partitions gives every worker, chunk by chunk, the same result holding the same contributions,
 * complete and with a silent worker.
 */
class PartitionsNetTest {
    @TempDir
    Path dir;

    private static String job(String name, String partitions, String op) {
        return """
                { name = %s, kind = allreduce, tenant = 1, members = all, %s
                  tree { mode = auto, root = core-1 }
                  data { elements = 2048, type = int32, op = %s, chunk = 256, window = 4, seed = 5 }
                  completion-timeout = 1ms }
                """.formatted(name, partitions, op);
    }

    private Scenario scenario(String partitions, String op, String faults) throws Exception {
        return Scenarios.write(
                dir,
                "p.conf",
                Scenarios.fatTree(
                        4,
                        "jobs = [" + job("one", "", op) + ", " + job("parts", partitions, op) + "]\nfaults = [" + faults
                                + "]"));
    }

    /** The results each worker took last, per chunk: what it holds and the payload. */
    private record Taken(EndpointSet holds, Payload payload) {}

    /** One INA phase on pure engines: frames hop by hop in FIFO order at one instant, then the next timer, until nothing is left. */
    private static final class Net {
        final Phase phase;
        final BitSpace space;
        final Map<String, NodeEngine> engines = new LinkedHashMap<>();
        final Map<String, List<EndpointDriver>> drivers = new LinkedHashMap<>();
        final Deque<Object[]> frames = new ArrayDeque<>();
        final Map<String, Map<Long, Taken>> taken = new TreeMap<>();
        /** The widest endpoint set seen on any packet a host received: the bit space its tree uses on the wire. */
        int widestAtHosts;

        long now;

        Net(Scenario s, Phase phase) {
            this.phase = phase;
            this.space = phase.job().common().bitSpace();
            Routing routing = Routing.compute(s.topology());
            for (Phase.Tree tree : phase.trees()) {
                tree.tables()
                        .forEach((node, t) -> engines.computeIfAbsent(
                                        node,
                                        n -> new NodeEngine(
                                                n, routing, new AggregationTable(1 << 16, 1_000_000_000L), false))
                                .install(t));
            }
            References refs = new References();
            for (DriverSpec d : phase.drivers()) {
                drivers.computeIfAbsent(d.host(), h -> new ArrayList<>()).add(d.create(refs, null));
            }
        }

        Net run() {
            drivers.forEach((h, ds) -> ds.forEach(d -> originate(h, d.start(now))));
            for (int rounds = 0; rounds < 10_000; rounds++) {
                while (!frames.isEmpty()) {
                    Object[] f = frames.poll();
                    String node = (String) f[0];
                    act(node, engines.get(node).onFrame((Frame) f[1], (String) f[2], now));
                }
                long next = Long.MAX_VALUE;
                for (NodeEngine e : engines.values()) {
                    next = Math.min(next, e.nextDeadline());
                }
                for (List<EndpointDriver> ds : drivers.values()) {
                    for (EndpointDriver d : ds) {
                        next = Math.min(next, d.nextDeadline());
                    }
                }
                if (next == Long.MAX_VALUE
                        || drivers.values().stream().flatMap(List::stream).allMatch(EndpointDriver::done)) {
                    return this;
                }
                now = Math.max(now, next);
                engines.forEach((n, e) -> act(n, e.onTimer(now)));
                drivers.forEach((h, ds) -> ds.forEach(d -> {
                    if (d.nextDeadline() <= now) {
                        originate(h, d.onTimer(now));
                    }
                }));
            }
            throw new AssertionError("the phase did not settle");
        }

        private void originate(String host, List<EndpointDriver.Out> outs) {
            outs.forEach(o -> act(host, engines.get(host).originate(o.frame(), now)));
        }

        private void act(String node, List<NodeEngine.Action> actions) {
            for (NodeEngine.Action a : actions) {
                if (a instanceof NodeEngine.Send s) {
                    frames.add(new Object[] {s.neighbor(), s.frame(), node});
                } else if (a instanceof NodeEngine.Deliver d) {
                    InaPacket p = d.frame().packet();
                    widestAtHosts = Math.max(widestAtHosts, p.endpoints().capacity());
                    if (p.header().type() == PacketType.RESULT) {
                        EndpointSet holds = p.provenance() != null
                                ? p.provenance()
                                : space.setOf(phase.job().common().members());
                        Taken before = taken.computeIfAbsent(node, k -> new TreeMap<>())
                                .get(p.header().seq());
                        if (before == null || !holds.isSubsetOf(before.holds())) {
                            taken.get(node).put(p.header().seq(), new Taken(holds, p.payload()));
                        }
                    }
                    for (EndpointDriver drv : drivers.getOrDefault(node, List.of())) {
                        if (drv.accepts(p)) {
                            originate(node, drv.onDeliver(d.frame(), now));
                        }
                    }
                }
            }
        }

        List<DriverReport> reports() {
            List<DriverReport> out = new ArrayList<>();
            drivers.values().forEach(ds -> ds.forEach(d -> out.add(d.report())));
            return out;
        }
    }

    private static Net net(Scenario s, String job) {
        Phase p = PhasePlanner.plan(s, Routing.compute(s.topology())).stream()
                .filter(x -> x.job().name().equals(job))
                .findFirst()
                .orElseThrow();
        return new Net(s, p).run();
    }

    private static void assertSameResults(Net one, Net parts) {
        assertEquals(one.taken.keySet(), parts.taken.keySet(), "the same workers took results");
        one.taken.forEach((host, chunks) -> {
            assertEquals(8, chunks.size(), host);
            chunks.forEach((seq, t) -> {
                Taken q = parts.taken.get(host).get(seq);
                assertNotNull(q, host + " chunk " + seq);
                assertEquals(t.holds(), q.holds(), host + " chunk " + seq + ": the same contributions");
                assertEquals(t.payload(), q.payload(), host + " chunk " + seq + ": the same int32 values");
            });
        });
        for (DriverReport r : parts.reports()) {
            assertEquals(List.of(), r.mismatches(), r.endpoint());
        }
    }

    @Test
    void podPartitionsGiveEveryWorkerTheOneTreeResultOnAFourBitSpace() throws Exception {
        Scenario s = scenario("partitions = by-pod", "sum", "");
        Net one = net(s, "one");
        Net parts = net(s, "parts");
        assertEquals(4, parts.phase.more().size());
        assertSameResults(one, parts);
        for (DriverReport r : parts.reports()) {
            assertTrue(r.done() && r.partialChunks().isEmpty(), r.toString());
            assertEquals(r.chunks(), r.verifiedChunks(), r.endpoint());
        }
        assertEquals(16, one.widestAtHosts, "one tree: the job's 16 bits on every packet");
        assertEquals(4, parts.widestAtHosts, "a pod's tree: its own 4 bits");
    }

    @Test
    void unevenListedPartitionsWithASilentWorkerLeaveTheSamePartialResultNamingIt() throws Exception {
        Scenario s = scenario(
                "partitions = [[h1, h2, h3, h4, h5, h6], [h7, h8, h9], [h10, h11, h12, h13, h14, h15, h16]]",
                "max",
                "{ at = 0ms, kind = silent, node = h8 }");
        Net one = net(s, "one");
        Net parts = net(s, "parts");
        assertSameResults(one, parts);
        EndpointSet all = one.space.setOf(one.phase.job().common().members());
        EndpointSet withoutH8 = all.andNot(one.space.setOf(List.of("h8")));
        parts.taken.forEach((host, chunks) ->
                chunks.forEach((seq, t) -> assertEquals(withoutH8, t.holds(), host + " chunk " + seq)));
        for (DriverReport r : parts.reports()) {
            if (!r.endpoint().equals("h8")) {
                assertEquals(8, r.partialChunks().size(), r.endpoint());
                assertTrue(r.partialChunks().stream().allMatch(c -> c.missing().equals(List.of("h8"))), r.toString());
                assertEquals(r.chunks(), r.verifiedChunks(), r.endpoint());
            }
        }
    }
}
