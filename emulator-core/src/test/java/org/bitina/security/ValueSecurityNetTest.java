package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.NodeEngine;
import org.bitina.protocol.StateKey;
import org.bitina.protocol.Tamper;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Phase;
import org.bitina.usecase.References;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.reduction.AllReduceData;
import org.bitina.usecases.PhasePlanner;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S6 on the real planner, engines and workers of an INA phase, wired by a small loop in this
 * test (no actors, so that every switch's aggregation buffers can be looked at after each frame):
 * masked values in every buffer, results that verify, and a corrupting switch caught, reduced
 * around and named.
 */
class ValueSecurityNetTest {
    private static final byte[] RUN_SECRET = "the run secret of this test: 32B".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private static String scenario(String security) {
        return Scenarios.fatTree(4, """
                jobs = [{
                  name = ar, kind = allreduce, tenant = 1, members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 2048, type = int32, op = sum, chunk = 256, window = 4, seed = 5 }
                  completion-timeout = 1ms
                  %s
                }]
                """.formatted(security));
    }

    /** One INA phase on pure engines: frames go hop by hop in FIFO order, every host's drivers answer at once. */
    private static final class Net {
        final Scenario scenario;
        final Phase phase;
        final Map<String, NodeEngine> engines = new LinkedHashMap<>();
        final Map<String, List<EndpointDriver>> drivers = new LinkedHashMap<>();
        final Deque<Object[]> frames = new ArrayDeque<>();
        final List<String> leaks = new ArrayList<>();
        int bufferLooks;

        Net(Scenario s) {
            this.scenario = s;
            Routing routing = Routing.compute(s.topology());
            this.phase = PhasePlanner.plan(s, routing).get(0);
            References refs = new References();
            phase.tables().forEach((node, t) -> {
                NodeEngine e = new NodeEngine(node, routing, new AggregationTable(1 << 16, 1_000_000_000L), false);
                JobTables keyed = s.jobs().get(0).valueChecksum()
                        ? t.withAuditKey(
                                ValueKeys.checksumKey(ValueKeys.endpointSecret(RUN_SECRET, t.tenant(), t.job())))
                        : t;
                e.install(keyed);
                engines.put(node, e);
            });
            for (DriverSpec d : phase.drivers()) {
                drivers.computeIfAbsent(d.host(), h -> new ArrayList<>())
                        .add(d.create(refs, ValueKeys.endpointSecret(RUN_SECRET, d.tenant(), d.job())));
            }
        }

        void run() {
            drivers.forEach((h, ds) -> ds.forEach(d -> originate(h, d.start(0))));
            while (!frames.isEmpty()) {
                Object[] f = frames.poll();
                String node = (String) f[0];
                act(node, engines.get(node).onFrame((Frame) f[1], (String) f[2], 0));
                lookAtBuffers(node);
            }
        }

        private void originate(String host, List<EndpointDriver.Out> outs) {
            outs.forEach(o -> act(host, engines.get(host).originate(o.frame(), 0)));
        }

        private void act(String node, List<NodeEngine.Action> actions) {
            for (NodeEngine.Action a : actions) {
                if (a instanceof NodeEngine.Send s) {
                    frames.add(new Object[] {s.neighbor(), s.frame(), node});
                } else if (a instanceof NodeEngine.Deliver d) {
                    for (EndpointDriver drv : drivers.getOrDefault(node, List.of())) {
                        if (drv.accepts(d.frame().packet())) {
                            originate(node, drv.onDeliver(d.frame(), 0));
                        }
                    }
                }
            }
        }

        /** No buffer may hold the cleartext sum of what it holds (one contribution's cleartext among them). */
        private void lookAtBuffers(String node) {
            if (!scenario.topology().node(node).isSwitch()) {
                return;
            }
            AllReduceData data =
                    new AllReduceData(((AllReduceSpec) scenario.jobs().get(0)).data());
            for (Map.Entry<StateKey, AggregationTable.Held> e :
                    engines.get(node).table().snapshot().entrySet()) {
                bufferLooks++;
                int chunk = (int) e.getKey().seq();
                int[] clear = new int[data.chunkLength(chunk)];
                for (int b : e.getValue().held().indices()) {
                    int[] x = ((Payload.Int32) data.payload(b, chunk)).values();
                    for (int i = 0; i < clear.length; i++) {
                        clear[i] += x[i];
                    }
                }
                int[] acc = ((Payload.Int32) e.getValue().accumulator()).values();
                int same = 0;
                for (int i = 0; i < clear.length; i++) {
                    same += acc[i] == clear[i] ? 1 : 0;
                }
                // a masked word equals the cleartext with probability 2^-32: one in a chunk is chance, most is a leak
                if (Arrays.equals(Arrays.copyOf(acc, clear.length), clear) || same > clear.length / 16) {
                    leaks.add(node + " chunk " + chunk + " holding "
                            + e.getValue().held() + ": " + same + " cleartext words");
                }
            }
        }

        List<DriverReport> reports() {
            List<DriverReport> out = new ArrayList<>();
            drivers.values().forEach(ds -> ds.forEach(d -> out.add(d.report())));
            return out;
        }

        Map<String, List<ChecksumAudit.Failure>> audit() {
            Map<String, List<ChecksumAudit.Failure>> out = new LinkedHashMap<>();
            engines.forEach((n, e) -> {
                List<ChecksumAudit.Failure> f =
                        e.auditFailures(phase.tables().get(n).tenant(), phase.wireJob());
                if (!f.isEmpty()) {
                    out.put(n, f);
                }
            });
            return out;
        }

        /** A VAT node below the root whose parent is a switch: where a corrupting switch can hide a change in a sum. */
        String innerVatSwitch() {
            return phase.tables().entrySet().stream()
                    .filter(e -> e.getValue().registered() != null
                            && !e.getValue().root()
                            && e.getKey().startsWith("agg-"))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static void assertAllVerified(Net net) {
        for (DriverReport r : net.reports()) {
            assertTrue(r.done(), r.toString());
            assertEquals(r.chunks(), r.verifiedChunks(), r.toString());
            assertEquals(List.of(), r.mismatches(), r.endpoint());
        }
    }

    @Test
    void noSwitchEverBuffersACleartextSumAndTheMaskedResultsVerify() throws Exception {
        Net net = new Net(Scenarios.write(dir, "masked.conf", scenario("security { masking = on }")));
        net.run();
        assertTrue(net.bufferLooks > 100, "buffers looked at: " + net.bufferLooks);
        assertEquals(List.of(), net.leaks);
        assertAllVerified(net);
    }

    @Test
    void withoutMaskingTheSameLookFindsTheCleartext() throws Exception {
        // the check above can fail: unmasked, every buffer holds exactly the cleartext sum
        Net net = new Net(Scenarios.write(dir, "clear.conf", scenario("")));
        net.run();
        assertFalse(net.leaks.isEmpty());
        assertEquals(net.bufferLooks, net.leaks.size());
        assertAllVerified(net);
    }

    @Test
    void aCorruptingSwitchIsCaughtReducedAroundByTheRingAndNamedByTheAudit() throws Exception {
        Net net = new Net(Scenarios.write(dir, "tampered.conf", scenario("security { masking = on, checksum = on }")));
        String bad = net.innerVatSwitch();
        net.engines.get(bad).tamper(new Tamper(Set.of()));
        net.run();
        assertAllVerified(net);
        int chunks = net.phase.units();
        for (DriverReport r : net.reports()) {
            DriverReport.ValueChecks v = r.values();
            assertNotNull(v, r.endpoint());
            assertEquals(chunks, v.failed().size(), r.endpoint() + " found every chunk's result failing");
            assertEquals(v.failed(), v.fellBack(), r.endpoint() + " took every one from the ring");
        }
        assertEquals(List.of(bad), ChecksumAudit.suspects(net.audit()));
    }

    @Test
    void anHonestRunWithTheChecksumFailsNothingAndNamesNoOne() throws Exception {
        Net net = new Net(Scenarios.write(dir, "honest.conf", scenario("security { masking = on, checksum = on }")));
        net.run();
        assertAllVerified(net);
        net.reports().forEach(r -> assertEquals(List.of(), r.values().failed(), r.endpoint()));
        assertEquals(Map.of(), net.audit());
        assertTrue(net.leaks.isEmpty(), net.leaks.toString());
    }
}
