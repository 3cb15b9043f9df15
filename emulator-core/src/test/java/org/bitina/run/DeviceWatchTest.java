package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.cluster.MemberAgent;
import org.bitina.device.DeviceCommand;
import org.bitina.job.Status;
import org.bitina.protocol.Frame;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Node;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.JobPlan;
import org.bitina.usecase.References;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** A device that stops, for whatever reason, ends its phase as failed and is named; nothing waits for it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeviceWatchTest {
    private final ActorTestKit kit = ActorTestKit.create();

    @TempDir
    Path dir;

    @AfterAll
    void stop() {
        kit.shutdownTestKit();
    }

    /** A driver whose host cannot even build it: an Error, so the host actor stops. */
    private record Broken() implements DriverSpec {
        @Override
        public String host() {
            return "h2";
        }

        @Override
        public JobPlan plan() {
            throw new AssertionError("no plan");
        }

        @Override
        public EndpointDriver create(References references) {
            throw new AssertionError("this driver cannot be built");
        }
    }

    /** One member agent, its devices under the virtual clock and a runner on them, running {@code s}; its report goes to {@code report}. */
    private Map<String, ActorRef<DeviceCommand>> start(Scenario s, String run, TestProbe<Report> report) {
        ActorRef<MemberAgent.Command> agent = kit.spawn(MemberAgent.create(() -> {}));
        TestProbe<MemberAgent.Spawned> spawned = kit.createTestProbe();
        List<String> switches = s.topology().nodes().stream()
                .filter(Node::isSwitch)
                .map(Node::name)
                .toList();
        List<String> hosts = s.topology().hosts().stream().map(Node::name).toList();
        byte[] token = {1, 2, 3};
        ActorRef<MemberAgent.Vouch> voucher = kit.spawn(MemberAgent.voucher(Map.of(agent, token)));
        agent.tell(new MemberAgent.SpawnDevices(
                run,
                switches,
                hosts,
                4096,
                5_000_000_000L,
                spawned.getRef(),
                0,
                1,
                true,
                token,
                voucher,
                List.of(agent)));
        Map<String, ActorRef<DeviceCommand>> devices =
                spawned.receiveMessage(Duration.ofSeconds(10)).devices();
        Map<String, String> placement = new LinkedHashMap<>();
        Map<String, Integer> where = new LinkedHashMap<>();
        devices.keySet().forEach(d -> {
            placement.put(d, "here");
            where.put(d, 0);
        });
        ActorRef<PhaseRunner.Command> runner = kit.spawn(PhaseRunner.create(
                s, devices, placement, where, List.of(new MemberAgent.Handle(agent, token)), null, new RunProgress()));
        runner.tell(new PhaseRunner.Run(report.getRef()));
        return devices;
    }

    /** A driver whose timer is always due and always throws: inside a window, not a hang but named failures. */
    private record Throwing() implements DriverSpec {
        @Override
        public String host() {
            return "h2";
        }

        /** Beside the INA phase's drivers (tenant 0, job 1): its timer is polled with theirs. */
        @Override
        public JobPlan plan() {
            return JobPlan.of(0, 1);
        }

        @Override
        public EndpointDriver create(References references) {
            return new EndpointDriver() {
                @Override
                public List<Out> start(long now) {
                    return List.of();
                }

                @Override
                public List<Out> onDeliver(Frame frame, long now) {
                    return List.of();
                }

                @Override
                public long nextDeadline() {
                    return 0;
                }

                @Override
                public List<Out> onTimer(long now) {
                    throw new IllegalStateException("a driver's bug");
                }

                @Override
                public boolean done() {
                    return false;
                }

                @Override
                public DriverReport report() {
                    throw new IllegalStateException("no report either");
                }
            };
        }
    }

    @Test
    void aDeviceThatThrowsInsideAWindowIsNamedAndThePhaseEndsInsteadOfHanging() throws Exception {
        Scenario s = Scenarios.write(dir, "t.conf", Scenarios.STAR4 + """
                jobs = [{
                  name = t, kind = allreduce, members = [h1, h2, h3, h4], tree { mode = auto, root = s1 }
                  data { elements = 4194304, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                }]
                """);
        TestProbe<Report> report = kit.createTestProbe();
        Map<String, ActorRef<DeviceCommand>> devices = start(s, "throw", report);
        Thread.sleep(300);
        devices.get("h2").tell(new DeviceCommand.StartDriver(new Throwing(), null));
        Report r = report.receiveMessage(Duration.ofSeconds(60));
        Report.JobReport ina = r.jobs().get(0);
        assertEquals(Status.FAILED, ina.outcome().status(), ina.toString());
        assertTrue(
                ina.outcome().note().contains("timers kept firing"),
                ina.outcome().note());
        assertTrue(
                ina.problems().deviceFailures().stream().anyMatch(d -> d.contains("h2 could not handle its timers")),
                ina.problems().deviceFailures().toString());
        assertFalse(ina.outcome().asExpected(), "a device that failed is never what a scenario expects");
    }

    @Test
    void aStoppedHostEndsThePhaseFailedNamingItAndTheNextPhaseDoesNotRun() throws Exception {
        Scenario s = Scenarios.write(dir, "w.conf", Scenarios.STAR4 + """
                jobs = [{
                  name = w, kind = allreduce, members = [h1, h2, h3, h4], tree { mode = auto, root = s1 }
                  data { elements = 4194304, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  baselines = [ring]
                }]
                """);
        TestProbe<Report> report = kit.createTestProbe();
        Map<String, ActorRef<DeviceCommand>> devices = start(s, "watch", report);
        // 4 M floats take the JVM seconds: h2 stops while the INA phase runs, of an Error (which a
        // device does not catch, unlike the exceptions that hostile input may cause)
        Thread.sleep(300);
        devices.get("h2").tell(new DeviceCommand.StartDriver(new Broken(), null));
        Report r = report.receiveMessage(Duration.ofSeconds(60));
        Report.JobReport ina = r.jobs().get(0);
        assertEquals(Status.FAILED, ina.outcome().status(), ina.toString());
        assertTrue(
                ina.outcome().note().contains("device h2 stopped"),
                ina.outcome().note());
        assertFalse(ina.outcome().asExpected());
        Report.JobReport ring = r.jobs().get(1);
        assertEquals(Status.FAILED, ring.outcome().status());
        assertTrue(
                ring.outcome().note().startsWith("not run: device h2 stopped"),
                ring.outcome().note());
        assertEquals(Ending.Cause.MEMBER_LOST, ina.outcome().ended().cause(), ina.toString());
        assertEquals(
                new Ending(Ending.Cause.NOT_RUN, "device h2 stopped"),
                ring.outcome().ended());
    }
}
