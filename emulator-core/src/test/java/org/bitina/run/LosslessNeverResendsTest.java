package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.topology.Link;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run that loses nothing never retransmits, resends a result or counts time lost to recovery,
 * whatever the window (issue 42 item 3: at {@code data.window = 256} fig. 1's INA sent 308
 * contributions again, since three of its chunk streams share the link s5 and queue three windows
 * there, beyond the round trip its timers were sized by). The shipped files that run in a few seconds
 * (MoE's have no data window), each with its loss, finite buffers, faults and attacks taken out.
 */
class LosslessNeverResendsTest {
    static final List<String> FILES = List.of(
            "aggregator-contention.conf",
            "fat-tree-k4-all-gather.conf",
            "fat-tree-k4-allreduce.conf",
            "fat-tree-k4-bier-inc.conf",
            "fat-tree-k4-broadcast.conf",
            "fat-tree-k4-reduce-scatter.conf",
            "paper-fig1-allreduce.conf",
            "rfc8279-example.conf",
            "shrinking-miss-set.conf",
            "two-tenants.conf");

    static Stream<Arguments> runs() {
        return FILES.stream().flatMap(f -> Stream.of(1, 32, 256, 4096).map(w -> Arguments.of(f, w)));
    }

    @ParameterizedTest(name = "{0} window {1}")
    @MethodSource("runs")
    void aLosslessRunNeverRecovers(String file, int window) throws Exception {
        Scenario s = ScenarioLoader.load(
                Scenarios.CONFIGS.resolve(file),
                Runtime.getRuntime().maxMemory(),
                Overrides.parse(List.of("data.window=" + window)));
        Report r = Scenarios.run(lossless(s));
        for (Report.JobReport j : r.jobs()) {
            String row = file + " window " + window + ": " + j.name() + " "
                    + j.mode().name() + (j.shared() == null ? "" : j.shared().alone() ? " alone" : " mix");
            assertEquals(0, j.recovery().retransmissions(), row + " retransmissions");
            assertEquals(0, j.recovery().resultResends(), row + " results resent");
            assertEquals(0.0, j.recovery().recoveryMicros(), row + " time lost to recovery");
        }
    }

    /** {@code s} without loss, finite buffers, faults or attacks: nothing is lost on the way. */
    static Scenario lossless(Scenario s) {
        return losing(s, 0);
    }

    /** {@code s} without finite buffers, faults or attacks, every link losing {@code loss} of its packets. */
    static Scenario losing(Scenario s, double loss) {
        List<Link> links = s.topology().links().stream()
                .map(l -> new Link(
                        l.a(),
                        l.b(),
                        new LinkSpec(
                                l.spec().latencyNanos(),
                                l.spec().bandwidthBps(),
                                l.spec().mtu(),
                                loss,
                                LinkSpec.UNLIMITED,
                                l.spec().ecnThresholdBytes())))
                .toList();
        return new Scenario(
                s.file(),
                new Topology(s.topology().nodes(), links),
                s.jobs(),
                List.of(),
                s.cluster(),
                s.clock(),
                s.security(),
                List.of(),
                s.capacity(),
                s.schedule(),
                s.traffic(),
                s.repeat(),
                s.congestion());
    }
}
