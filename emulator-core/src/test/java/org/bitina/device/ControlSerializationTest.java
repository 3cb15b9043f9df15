package org.bitina.device;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.reference;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.serialization.JavaSerializer;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.apache.pekko.serialization.jackson.JacksonCborSerializer;
import org.bitina.job.Mode;
import org.bitina.protocol.Counter;
import org.bitina.protocol.JobKey;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.ObservedTrees;
import org.bitina.protocol.PacketCapture;
import org.bitina.protocol.Recorded;
import org.bitina.protocol.SwitchTiming;
import org.bitina.protocol.TraceEvent;
import org.bitina.run.Limits;
import org.bitina.run.Report;
import org.bitina.run.ScenarioRunner;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Bift;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.traffic.TrafficPlan;
import org.bitina.usecases.PhasePlanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6 (E2): every control message crosses JVMs as Jackson CBOR, data-plane frames through
 * the INA codec, nothing through Java serialisation; and whole runs verify with Pekko's
 * serialize-messages on, so every message sent anywhere in them was serialised and read back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlSerializationTest {
    private final ActorTestKit kit = ActorTestKit.create(ConfigFactory.load());
    private final Serialization serialization = SerializationExtension.get(kit.system());

    @TempDir
    Path dir;

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    private Object roundTrip(Object m) {
        Serializer s = serialization.findSerializerFor(m);
        assertTrue(!(s instanceof JavaSerializer), m.getClass() + " would use Java serialisation");
        if (!(m instanceof DeviceCommand.FrameIn)) {
            assertTrue(s instanceof JacksonCborSerializer, m.getClass() + " uses " + s.getClass());
        }
        byte[] bytes = serialization.serialize(m).get();
        Object back = serialization
                .deserialize(bytes, s.identifier(), Serializers.manifestFor(s, m))
                .get();
        assertEquals(m.getClass(), back.getClass());
        // classes without value equality (routing, BIFT) are compared by what they serialise to
        assertArrayEquals(bytes, serialization.serialize(back).get(), () -> m.getClass() + " changed on the way: " + m);
        return back;
    }

    @Test
    void everyControlMessageOfEveryJobKindRoundTripsAsCbor() throws Exception {
        TestProbe<DeviceCommand> device = kit.createTestProbe();
        TestProbe<Recorded> trace = kit.createTestProbe();
        TestProbe<DeviceCommand.HostEvent> host = kit.createTestProbe();
        TestProbe<DeviceCommand.DeviceStats> stats = kit.createTestProbe();
        TestProbe<String> sync = kit.createTestProbe();
        List<Object> messages = new ArrayList<>();
        int plans = 0;
        for (String f : List.of(
                "paper-fig1-allreduce.conf",
                "paper-fig2-moe.conf",
                "moe-skewed.conf",
                "shrinking-miss-set.conf",
                "fat-tree-k4-bier-inc.conf",
                "fat-tree-k8-partitions.conf")) {
            Scenario s = reference(f);
            Routing routing =
                    Routing.compute(s.topology(), Set.of(s.topology().links().get(0)), Set.of());
            for (Phase p : PhasePlanner.plan(s, routing)) {
                // every tree's tables: a phase over partitions (H2) holds its second stage's and each partition's
                p.trees()
                        .forEach(tree ->
                                tree.tables().values().forEach(t -> messages.add(new DeviceCommand.InstallJob(t))));
                p.drivers().forEach(d -> messages.add(new DeviceCommand.StartDriver(d, host.ref())));
                plans++;
            }
            String node = s.topology().nodes().get(0).name();
            messages.add(new DeviceCommand.Wire(
                    Map.of("n1", device.ref()),
                    Map.of("n1", LinkSpec.DEFAULT),
                    routing,
                    7L,
                    new Recorder(trace.ref(), true, true)));
            messages.add(new DeviceCommand.Reroute(
                    routing,
                    Map.of(
                            new JobKey(1, 1),
                            Bift.build(routing, node, s.jobs().get(0).common().bitSpace()))));
        }
        assertTrue(plans >= 8, "allreduce (ina, ring, ps), moe (ina, a2a), multicast, bier-inc phases: " + plans);
        // a MoE job routed by a trace file (issue 45 item 4): its drivers carry the choices to every member
        Files.writeString(dir.resolve("routes.csv"), "src,0,e1 e8\nsrc,1,e2 e3\n");
        Scenario traced = reference(
                dir,
                "paper-fig2-moe.conf",
                f -> f.replace("tokens-per-source = 16", "tokens-per-source = 2")
                        .replace("top-k = 4", "top-k = 2")
                        .replace(
                                "pinned = [ { tokens = [0], experts = [e2, e3, e6, e7] } ]",
                                "routing { trace = " + dir.resolve("routes.csv") + " }"));
        for (Phase p : PhasePlanner.plan(traced, Routing.compute(traced.topology()))) {
            p.drivers().forEach(d -> messages.add(new DeviceCommand.StartDriver(d, host.ref())));
        }
        // background traffic (T3): its tables on every node, its hosts' flows
        for (TrafficPlan t : TrafficPlan.of(reference("shared-fabric.conf"))) {
            t.tables().values().forEach(tables -> messages.add(new DeviceCommand.InstallJob(tables)));
            t.drivers().forEach(d -> messages.add(new DeviceCommand.StartDriver(d, host.ref())));
            assertTrue(t.drivers().stream().anyMatch(d -> !d.sends().isEmpty()), "a host sends flows");
        }
        messages.add(new DeviceCommand.BeginJob(1, 2));
        messages.add(new DeviceCommand.Sync(sync.ref()));
        messages.add(DeviceCommand.ResetLinks.INSTANCE);
        messages.add(new DeviceCommand.SwitchSpeed(new SwitchTiming.Spec(300, 3.2e12)));
        messages.add(DeviceCommand.Crash.INSTANCE);
        messages.add(DeviceCommand.Recover.INSTANCE);
        messages.add(new DeviceCommand.LinkFault("s1", false, 0.05, null, null, 1000L));
        messages.add(new DeviceCommand.CollectStats(1, 2, stats.ref()));
        messages.add(new DeviceCommand.CollectStats(1, 2, List.of(5_002_001, 5_002_002), stats.ref()));
        DriverReport r = DriverReport.of("w1", DriverReport.Role.WORKER)
                .chunks(4)
                .received(3)
                .partialChunks(List.of(new DriverReport.PartialChunk(2, List.of("w4"))))
                .mismatches(List.of("chunk 3: no result"))
                .lastVt(99L)
                .verifiedChunks(3)
                .stats(Map.of("retransmissions", 2L))
                .build();
        messages.add(DeviceCommand.DeviceStats.builder("s1", true)
                .traffic(new DeviceCommand.DeviceStats.Traffic(
                        Map.of(Counter.FRAMES_IN, 10L),
                        Map.of(),
                        List.of(new DeviceCommand.LinkStats("s1", "w1", 3, 300, 120, 0, 0, 0))))
                .state(new DeviceCommand.DeviceStats.State(5, 1024, List.of(), 3, List.of()))
                .health(new DeviceCommand.DeviceStats.Health(1L, List.of("s1 could not handle FrameIn: boom")))
                .drivers(List.of(r))
                .build());
        messages.add(DeviceCommand.DeviceStats.builder("s1", true)
                .traffic(new DeviceCommand.DeviceStats.Traffic(
                        Map.of(Counter.FRAMES_IN, 10L), Map.of(5_002_001, Map.of(Counter.BRIDGED_UP, 4L)), List.of()))
                .state(new DeviceCommand.DeviceStats.State(5, 1024, List.of(), 0, List.of()))
                .drivers(List.of(r))
                .build());
        messages.add(new DeviceCommand.DriverDone(1, 2, r));
        // the report's time views: a driver's per-unit completion times, a switch's entries over modelled time
        CompletionTimes times = new CompletionTimes(4);
        times.done(0, 1200);
        times.done(2, 3400);
        DriverReport timed = r.withUnitTimes(times);
        messages.add(new DeviceCommand.DriverDone(1, 2, timed));
        messages.add(DeviceCommand.DeviceStats.builder("s2", true)
                .state(new DeviceCommand.DeviceStats.State(
                        2, 64, List.of(new long[] {100, 1}, new long[] {250, 2}, new long[] {300, 0}), 0, List.of()))
                .drivers(List.of(timed))
                .build());
        // the trees the packets built, as a switch observed them
        messages.add(DeviceCommand.DeviceStats.builder("s0", true)
                .state(new DeviceCommand.DeviceStats.State(
                        2,
                        64,
                        List.of(),
                        0,
                        List.of(
                                new ObservedTrees.Branch("C-BM", "src", 15, "[11111111]"),
                                new ObservedTrees.Branch("INC", "core-1", 2, "[0110]"))))
                .build());
        messages.add(new DeviceCommand.Progress(1, 2, 64));
        messages.add(new TraceEvent(
                "s1", "j", Mode.INA, 3, TraceEvent.Kind.FORWARD, "agg", "[0110]", List.of("s2"), 5L, null));
        messages.add(new PacketCapture(
                2,
                new TraceEvent("s1", "j", Mode.INA, 3, TraceEvent.Kind.SEND, "agg", "[0110]", List.of("s2"), 5L, null),
                new byte[] {1, 2, 3}));
        for (Object m : messages) {
            roundTrip(m);
        }
        // a routing that arrives is the same routing: every next hop agrees
        Scenario fig1 = reference("paper-fig1-allreduce.conf");
        Routing before =
                Routing.compute(fig1.topology(), Set.of(fig1.topology().links().get(2)), Set.of());
        Routing after = ((DeviceCommand.Reroute) roundTrip(new DeviceCommand.Reroute(before, Map.of()))).routing();
        for (var a : fig1.topology().nodes()) {
            for (var b : fig1.topology().nodes()) {
                assertEquals(before.nextHop(a.name(), b.name()), after.nextHop(a.name(), b.name()));
            }
        }
    }

    @Test
    void javaSerialisationIsOff() {
        AtomicLong plain = new AtomicLong(3);
        assertThrows(
                Exception.class,
                () -> serialization.serialize(plain).get(),
                "a Serializable with no binding is refused");
        assertEquals("off", kit.system().settings().config().getString("pekko.actor.allow-java-serialization"));
    }

    @Test
    void runsVerifyWithEveryMessageSerialised() throws Exception {
        Scenario all = write(dir, "all-kinds.conf", fatTree(4, """
                defs { data { elements = 2048, type = int32, op = sum, chunk = 256, window = 4, seed = 2 } }
                jobs = [
                  { name = ar, kind = allreduce, members = all, tree { mode = auto, root = core-1 }, data = ${defs.data},
                    completion-timeout = 1s, baselines = [ring, ps] }
                  { name = inc, kind = bier-inc, members = all, edge = leaf-switches, data = ${defs.data}, completion-timeout = 1s }
                  { name = moe, kind = moe, sources = [h1, h2], experts = [h5, h9, h13, h16]
                    moe { top-k = 2, hidden = 64, tokens-per-source = 32, seed = 3 }, completion-timeout = 1s, baselines = [all-to-all] }
                  { name = mc, kind = reliable-multicast, source = h1, receivers = all,
                    data { bytes = 65536, packet = 1024, window = 16, seed = 4 }, ack { per = window, tree = composed },
                    max-rounds = 5, completion-timeout = 1s }
                ]
                """));
        // a message that cannot be serialised stalls the run: bound it, so that shows as a failure
        ScenarioRunner.Options options = new ScenarioRunner.Options(
                        dir.resolve("t.jsonl"),
                        Limits.DEFAULT,
                        Duration.ofMinutes(3),
                        ConfigFactory.parseString("pekko.actor.serialize-messages = on"))
                .withPcap(dir.resolve("t.pcapng"));
        Report report = run(all, options);
        assertEquals(7, report.jobs().size(), "ina, ring, ps; bier-inc; moe ina, all-to-all; multicast");
        for (Report.JobReport j : report.jobs()) {
            assertTrue(
                    j.outcome().verified(),
                    j.name() + "/" + j.mode() + ": " + j.problems().mismatches() + " "
                            + j.problems().unfinished());
        }
        Report back = (Report) roundTrip(report);
        // a mode is a record that travels as its name: wherever one is (a field, a map's key), a Mode comes back
        // (a Map<Mode, X> whose keys came back as Strings would fail only where a reader casts them)
        boolean speedups = false;
        for (Report.JobReport j : back.jobs()) {
            assertEquals(Mode.class, ((Object) j.mode()).getClass(), j.name());
            if (j.speedup() != null) {
                for (Object key : j.speedup().keySet()) {
                    assertEquals(Mode.class, key.getClass(), j.name() + " speedup key " + key);
                    speedups = true;
                }
            }
        }
        assertTrue(speedups, "the ina row compares with ring and ps");
    }

    @Test
    void modesComeBackAsModesInTablesAndTraceEvents() throws Exception {
        Scenario s = reference("paper-fig1-allreduce.conf");
        Routing routing = Routing.compute(s.topology(), Set.of(), Set.of());
        int tables = 0;
        for (Phase p : PhasePlanner.plan(s, routing)) {
            for (Phase.Tree tree : p.trees()) {
                for (JobTables t : tree.tables().values()) {
                    DeviceCommand.InstallJob back =
                            (DeviceCommand.InstallJob) roundTrip(new DeviceCommand.InstallJob(t));
                    assertEquals(Mode.class, ((Object) back.tables().mode()).getClass());
                    assertEquals(p.mode(), back.tables().mode());
                    tables++;
                }
            }
        }
        assertTrue(tables > 0, "fig1's phases install tables");
        TraceEvent e = (TraceEvent) roundTrip(new TraceEvent(
                "s1", "j", new Mode("ring"), 3, TraceEvent.Kind.FORWARD, "agg", "[0110]", List.of("s2"), 5L, null));
        assertEquals(Mode.class, ((Object) e.mode()).getClass());
        assertEquals(new Mode("ring"), e.mode());
    }
}
