package org.bitina.usecases;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSets;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.Phase;
import org.bitina.usecase.Straggler;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.bitina.usecase.bierinc.IncDriver;
import org.bitina.usecase.moe.MoeDriver;
import org.bitina.usecase.moe.MoePlan;
import org.bitina.usecase.moe.MoeSource;
import org.bitina.usecase.multicast.MulticastDriver;
import org.bitina.usecase.multicast.MulticastPlan;
import org.bitina.usecase.reduction.AllReduceDriver;
import org.bitina.usecase.reduction.AllReducePlan;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.Verifier;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the planner makes of a scenario, phase by phase, before anything runs. */
class UseCasesPlanTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private static List<Phase> plan(Scenario s) {
        return PhasePlanner.plan(s, Routing.compute(s.topology()));
    }

    private static Phase phase(List<Phase> phases, String mode) {
        return phases.stream()
                .filter(p -> p.mode().name().equals(mode))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> nodes(Scenario s) {
        return s.topology().nodes().stream().map(Node::name).toList();
    }

    /** A driver's role, with its kind where two kinds share a name. */
    private static String role(DriverSpec d) {
        if (d instanceof AllReduceDriver a) {
            return a.role().name();
        } else if (d instanceof MoeDriver m) {
            return "MOE_" + m.role().name();
        } else if (d instanceof MulticastDriver m) {
            return "MULTICAST_" + m.role().name();
        }
        return d instanceof IncDriver ? "INC_MEMBER" : d.getClass().getSimpleName();
    }

    /** The plan the phase's AllReduce drivers share. */
    private static AllReducePlan plan(Phase p) {
        return p.drivers().stream()
                .map(d -> ((AllReduceDriver) d).plan())
                .distinct()
                .reduce((a, b) -> {
                    throw new AssertionError("one plan per phase");
                })
                .orElseThrow();
    }

    private static MoePlan moe(Phase p) {
        return ((MoeDriver) p.drivers().get(0)).plan();
    }

    private static MulticastPlan multicast(Phase p) {
        return ((MulticastDriver) p.drivers().get(0)).plan();
    }

    private static Map<String, String> roles(Phase p) {
        Map<String, String> out = new LinkedHashMap<>();
        p.drivers().forEach(d -> out.put(d.host(), role(d)));
        return out;
    }

    @Test
    void fig1HasAnInaPhaseThenOnePerBaselineEachUnderItsOwnWireJob() throws Exception {
        Scenario s = reference("paper-fig1-allreduce.conf");
        List<Phase> phases = plan(s);
        assertEquals(
                List.of("ina", "ring", "ps"),
                phases.stream().map(p -> p.mode().name()).toList());
        int id = s.jobs().get(0).common().id();
        assertEquals(
                List.of(id, WireJobs.RING.of(id), WireJobs.PS.of(id)),
                phases.stream().map(Phase::wireJob).toList());
        for (Phase p : phases) {
            assertEquals(nodes(s), List.copyOf(p.tables().keySet()), p.mode() + ": every node knows the job");
            assertTrue(
                    p.tables().values().stream().allMatch(t -> t.job() == p.wireJob()),
                    p.mode().name());
            assertEquals(Set.of("w1", "w2", "w3", "w4"), p.awaited());
            assertEquals(Status.COMPLETE, p.expected().status());
            assertEquals(Set.of(), p.expected().missing());
        }
    }

    @Test
    void fig1sInaTablesHoldTheSeedsAbmsAtTheVatNodesOnlyAndTheRootWaitsOneTimeoutPerLevel() throws Exception {
        Scenario s = reference("paper-fig1-allreduce.conf");
        Phase ina = phase(plan(s), "ina");
        long timeout = s.jobs().get(0).common().completionTimeout().toNanos();
        Map<String, String> abms = new LinkedHashMap<>();
        ina.tables().forEach((n, t) -> {
            if (t.registered() != null) {
                abms.put(n, t.registered().toString());
            }
            assertNotNull(t.bift(), n + " replicates the result by its BIFT");
        });
        assertEquals(Map.of("s1", "[11000000]", "s7", "[00110000]", "s6", "[11110000]"), abms);
        assertEquals("s6", ina.tables().get("s1").vatParent());
        assertEquals("s6", ina.tables().get("s7").vatParent());
        assertEquals(
                List.of("s6"),
                ina.tables().entrySet().stream()
                        .filter(e -> e.getValue().root())
                        .map(Map.Entry::getKey)
                        .toList());
        assertEquals(
                2 * timeout,
                ina.tables().get("s6").timeoutNanos(),
                "the root is two levels up: its children's partials come first");
        assertEquals(timeout, ina.tables().get("s1").timeoutNanos());
        assertEquals(timeout, ina.tables().get("s5").timeoutNanos(), "not in the VAT");
        assertEquals(2 * timeout, plan(ina).timeoutNanos(), "a worker waits as long as the root");
        assertEquals(
                Map.of("w1", "s1", "w2", "s1", "w3", "s7", "w4", "s7"),
                plan(ina).uplink());
        assertEquals(List.of("s6"), ina.roots());
        assertEquals(Map.of("w1", "WORKER", "w2", "WORKER", "w3", "WORKER", "w4", "WORKER"), roles(ina));
    }

    @Test
    void baselinesAreRoutedEverywhereButNothingAggregatesOrReplicatesThem() throws Exception {
        Scenario s = reference("paper-fig1-allreduce.conf");
        List<Phase> phases = plan(s);
        for (Phase p : List.of(phase(phases, "ring"), phase(phases, "ps"))) {
            for (JobTables t : p.tables().values()) {
                assertNull(t.bift(), p.mode().name());
                assertNull(t.registered(), p.mode().name());
                assertTrue(!t.root(), p.mode().name());
            }
        }
        Phase ring = phase(phases, "ring");
        assertNull(ring.roots(), "the busiest ring member is counted");
        assertTrue(ring.drivers().stream().allMatch(d -> "RING_WORKER".equals(role(d))));
        Phase ps = phase(phases, "ps");
        assertEquals(List.of("w5"), ps.roots());
        assertEquals("PARAMETER_SERVER", roles(ps).get("w5"));
        assertEquals("w5", plan(ps).psHost());
        assertTrue(plan(ps).uplink().values().stream().allMatch("w5"::equals), "every worker sends to the server");
    }

    @Test
    void aSilentWorkerMakesInaAndPsPartialAndTheRingFailedAndAStragglerIsPlannedWithItsChunks() throws Exception {
        Scenario s = reference(dir, "paper-fig1-allreduce.conf", t -> t + """
                faults = [
                  { kind = silent, node = w2 }
                  { kind = straggler, node = w3, delay = 30ms, chunks = [1, 4] }
                  { kind = silent, node = w7 }
                ]
                """);
        List<Phase> phases = plan(s);
        assertEquals(
                List.of("partial", "failed", "partial"),
                phases.stream().map(x -> x.expected().status().label()).toList());
        for (Phase p : phases) {
            assertEquals(Set.of("w2"), p.expected().missing(), p.mode() + ": w7 is no member, so not missed");
            assertEquals(Set.of("w1", "w3", "w4"), p.awaited(), p.mode().name());
            assertEquals(Set.of("w2"), plan(p).silent());
            assertEquals(Map.of("w3", new Straggler(30 * MS, 0, Set.of(1L, 4L))), plan(p).stragglers());
        }
        assertTrue(phase(phases, "ring").note().contains("a ring cannot complete with a silent member: [w2]"));
    }

    @Test
    void theParameterServerIsTheFirstNonMemberHostOrTheFirstMemberWhenEveryHostIsOne() throws Exception {
        Scenario fig1 = reference("paper-fig1-allreduce.conf");
        AllReduceSpec job = (AllReduceSpec) fig1.jobs().get(0);
        String firstNonMember = fig1.topology().hosts().stream()
                .map(Node::name)
                .filter(h -> !job.common().members().contains(h))
                .findFirst()
                .orElseThrow();
        assertEquals(
                firstNonMember,
                ArrayPhases.psHost(fig1, job.common().members(), job.tree().root()),
                "the VAT root s6 is a switch");

        Scenario all = write(dir, "all.conf", fatTree(4, """
                jobs = [{ name = a, kind = allreduce, members = all, tree { mode = auto, root = core-1 }
                  data { elements = 256, type = int32, op = sum, chunk = 256 }, baselines = [ps] }]
                """));
        AllReduceSpec a = (AllReduceSpec) all.jobs().get(0);
        assertEquals(
                a.common().members().get(0),
                ArrayPhases.psHost(all, a.common().members(), a.tree().root()));
        assertEquals(
                List.of(a.common().members().get(0)), phase(plan(all), "ps").roots());
    }

    @Test
    void anMoePhaseHoldsTheExpertsBiftsEverywhereAndItsBaselineOnlyRoutes() throws Exception {
        Scenario s = reference("paper-fig2-moe.conf");
        List<Phase> phases = plan(s);
        assertEquals(
                List.of("ina", "all-to-all"),
                phases.stream().map(p -> p.mode().name()).toList());
        int id = s.jobs().get(0).common().id();
        assertEquals(
                List.of(id, WireJobs.ALL_TO_ALL.of(id)),
                phases.stream().map(Phase::wireJob).toList());
        assertTrue(
                phase(phases, "ina").tables().values().stream()
                        .allMatch(t -> t.bift() != null && t.registered() == null),
                "C-BMs are installed by the dispatch, never planned");
        assertTrue(phase(phases, "all-to-all").tables().values().stream().allMatch(t -> t.bift() == null));
        Phase ina = phase(phases, "ina");
        int bits = s.jobs().get(0).common().bitSpace().capacity();
        int mtu = s.topology().links().stream()
                .mapToInt(l -> l.spec().mtu())
                .min()
                .orElseThrow();
        assertEquals(
                mtu - PacketCodec.HEADER_BYTES - InaPacket.AUTH_TAG_BYTES - (bits + 7) / 8,
                moe(ina).payloadBudget(),
                "a dispatch fits the smallest MTU with its S2 tag (on by default)");
        assertEquals(Set.of("src"), ina.awaited());
        assertEquals(
                8,
                ina.drivers().stream().filter(d -> "MOE_EXPERT".equals(role(d))).count());
        assertEquals(Status.COMPLETE, ina.expected().status());
    }

    @Test
    void aSilentExpertHostMakesItsExpertsTheExpectedMissing() throws Exception {
        Scenario s = write(dir, "moe.conf", """
                topology {
                  switches = [s0, s1, s7]
                  hosts = [src, h1, h2, h3, h4]
                  links = [ [src, s0], [s0, s1], [s0, s7], [s1, h1], [s1, h2], [s7, h3], [s7, h4] ]
                }
                jobs = [{
                  name = moe, kind = moe, sources = [src]
                  experts = [ { name = e1, host = h1 }, { name = e2, host = h1 }, { name = e3, host = h2 }, { name = e4, host = h2 },
                              { name = e5, host = h3 }, { name = e6, host = h3 }, { name = e7, host = h4 }, { name = e8, host = h4 } ]
                  moe { top-k = 3, hidden = 64, tokens-per-source = 64, seed = 9 }
                  baselines = [all-to-all]
                }]
                faults = [ { kind = silent, node = h4 }, { kind = straggler, node = h3, delay = 20ms } ]
                """);
        for (Phase p : plan(s)) {
            assertEquals(Status.PARTIAL, p.expected().status(), p.mode().name());
            assertEquals(Set.of("e7", "e8"), p.expected().missing(), p.mode().name());
            assertEquals(Set.of("h4"), moe(p).silent());
            assertEquals(Set.of("h3"), moe(p).stragglers().keySet());
            assertEquals(20 * MS, p.timing().maxStraggleNanos());
        }
    }

    @Test
    void aMulticastPhasePlansTheSourceAndEveryReceiverAndASilentReceiverIsExpectedMissing() throws Exception {
        Scenario s = write(dir, "mc.conf", """
                topology { generator { kind = leaf-spine, spines = 2, leaves = 3, hosts-per-leaf = 3 } }
                jobs = [{
                  name = cp, kind = reliable-multicast, source = h1, receivers = all
                  data { bytes = 16000, packet = 4000, window = 2, seed = 4 }, ack { per = window, tree = self-installed }
                  completion-timeout = 20ms
                  baselines = [unicast-ack]
                }]
                faults = [ { kind = silent, node = h5 } ]
                """);
        List<Phase> phases = plan(s);
        assertEquals(
                List.of("ina", "unicast-ack"),
                phases.stream().map(p -> p.mode().name()).toList());
        int id = s.jobs().get(0).common().id();
        assertEquals(WireJobs.UNICAST_ACK.of(id), phases.get(1).wireJob());
        Phase ina = phases.get(0);
        assertTrue(
                ina.tables().values().stream()
                        .allMatch(t -> t.dataInstall() == JobTables.DataInstall.ALWAYS && t.registered() == null),
                "a self-installed ACK tree is built by the data, planned nowhere");
        assertTrue(
                phases.get(1).tables().values().stream().allMatch(t -> t.dataInstall() == JobTables.DataInstall.NEVER));
        List<String> receivers = s.jobs().get(0).common().members();
        for (Phase p : phases) {
            assertEquals(Set.of("h1"), p.awaited(), "the source ends the phase");
            assertEquals(Status.PARTIAL, p.expected().status());
            assertEquals(Set.of("h5"), p.expected().missing());
            assertEquals(
                    receivers.size(),
                    p.drivers().stream()
                            .filter(d -> "MULTICAST_RECEIVER".equals(role(d)))
                            .count());
            assertEquals(Set.copyOf(receivers), multicast(p).uplink().keySet());
            assertTrue(multicast(p).uplink().values().stream().allMatch("h1"::equals), "no VAT: ACKs go to the source");
            assertEquals(
                    20 * MS * (Math.min(s.topology().size(), 8) + 2),
                    multicast(p).roundTimeoutNanos());
        }
    }

    @Test
    void bierIncMakesEveryMemberAnOwnerSoASilentMemberFailsAnAllReduceButAReduceIsOnlyPartial() throws Exception {
        String job = """
                topology { generator { kind = paper-fig1 } }
                jobs = [{ name = inc, kind = bier-inc, members = [w1, w2, w3, w4], %s
                  data { elements = 1024, type = int32, op = sum, chunk = 256 } }]
                faults = [ { kind = silent, node = w2 } ]
                """;
        Phase all = plan(write(dir, "all.conf", job.formatted(""))).get(0);
        assertEquals(List.of("w1", "w2", "w3", "w4"), all.roots(), "one tree per owner");
        assertEquals(Status.FAILED, all.expected().status(), "w2's chunks have no tree");
        assertTrue(all.note().contains("silent owners start no tree: [w2]"), all.note());
        assertTrue(
                all.tables().values().stream().allMatch(t -> t.bift() != null && t.registered() == null),
                "BIFTs, no A-BM");

        Phase reduce = plan(write(dir, "reduce.conf", job.formatted("collective = reduce, root = w1")))
                .get(0);
        assertEquals(List.of("w1"), reduce.roots());
        assertEquals(Set.of("w1"), reduce.awaited(), "a reduce waits at its root");
        assertEquals(Status.PARTIAL, reduce.expected().status());
        assertEquals(Set.of("w2"), reduce.expected().missing());
    }

    @Test
    void theJobsEncodingIsOnEveryTableOfEveryPhaseAndInItsNote() throws Exception {
        Scenario s = write(dir, "enc.conf", fatTree(4, """
                jobs = [{ name = e, kind = allreduce, members = all, encoding = node-list, tree { mode = auto, root = core-1 }
                  data { elements = 256, type = int32, op = sum, chunk = 256 }, baselines = [ring, ps] }]
                """));
        List<Phase> phases = plan(s);
        assertEquals(3, phases.size());
        for (Phase p : phases) {
            assertTrue(
                    p.tables().values().stream().allMatch(t -> t.encoding().encoding() == Encoding.NODE_LIST),
                    p.mode().name());
            assertTrue(p.note().endsWith("; endpoint sets node-list"), p.note());
        }
        // the A-BMs themselves do not change with the encoding
        Map<String, String> abms = phases.get(0).tables().entrySet().stream()
                .filter(e -> e.getValue().registered() != null)
                .collect(Collectors.toMap(
                        Map.Entry::getKey, e -> EndpointSets.format(e.getValue().registered())));
        assertEquals("[1111111111111111]", abms.get("core-1"), "the root holds every member");
    }

    /** The report's tolerances: each kind that ran brings its own, once, a kind compared exactly none. */
    @Test
    void tolerancesAreThoseOfTheKindsThatRanInTheListsOrder() {
        assertEquals(List.of(), UseCases.tolerances(Set.of("reliable-multicast")));
        assertEquals(
                List.of(Verifier.FLOAT_TOLERANCE, MoeSource.TOLERANCE),
                UseCases.tolerances(Set.of("moe", "bier-inc", "reliable-multicast")));
        assertEquals(List.of(Verifier.FLOAT_TOLERANCE), UseCases.tolerances(Set.of("allreduce", "bier-inc")));
    }
}
