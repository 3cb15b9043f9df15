package org.bitina.usecase.allgather;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.bitina.job.Mode;
import org.bitina.run.Scenarios;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.UseCase;
import org.bitina.usecases.PhasePlanner;
import org.bitina.usecases.UseCases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An all-gather's estimate and bus factor against a count by hand: 4 members h1..h4, two under each
 * of t1 and t2 joined by s1; 76 elements in chunks of 8, so 10 chunks (the last of 4); members own
 * chunks {0,4,8} (24 elements), {1,5,9} (20), {2,6} (16), {3,7} (16); a window of 2.
 */
class AllGatherEstimatesTest {
    @TempDir
    Path dir;

    private Scenario scenario(int elements) throws Exception {
        return Scenarios.write(dir, "ag.conf", """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps }
                  switches = [s1, t1, t2]
                  hosts = [h1, h2, h3, h4]
                  links = [[s1, t1], [s1, t2], [t1, h1], [t1, h2], [t2, h3], [t2, h4]]
                }
                jobs = [{
                  name = ag, kind = all-gather, tenant = 1
                  members = all
                  data { elements = %d, type = float32, chunk = 8, window = 2, seed = 3 }
                  completion-timeout = 1ms
                  baselines = [ring]
                }]
                """.formatted(elements));
    }

    private static Phase phase(List<Phase> phases, String mode) {
        return phases.stream()
                .filter(p -> p.mode().name().equals(mode))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theMulticastCountsOnePacketPerChunkAndAnAcknowledgementFromEachOtherMember() throws Exception {
        Scenario s = scenario(76);
        Routing routing = Routing.compute(s.topology());
        PhaseEstimate e = UseCases.estimate(phase(PhasePlanner.plan(s, routing), "ina"), s, routing);
        assertEquals(10 * (1 + 3), e.packets());
        assertEquals(24 * 4, e.senderBytes(), "h1 multicasts its 24 elements once");
        assertEquals(2, e.roundTrips(), "h1's 3 chunks in windows of 2");

        // the same from the routes the members run: a multicast per chunk its owner sends, an ack per target
        GatherRoutes routes = new GatherRoutes(GatherRoutes.Kind.MULTICAST, 4);
        long packets = 0;
        for (int m = 0; m < 4; m++) {
            for (int c = 0; c < 10; c++) {
                int targets = routes.targets(m, c).size();
                packets += targets == 0 ? 0 : 1 + targets;
            }
        }
        assertEquals(packets, e.packets());
    }

    @Test
    void theRingCountsNMinusOneSendsPerChunkEachAcknowledged() throws Exception {
        Scenario s = scenario(76);
        Routing routing = Routing.compute(s.topology());
        PhaseEstimate e = UseCases.estimate(phase(PhasePlanner.plan(s, routing), "ring"), s, routing);
        assertEquals(2 * 10 * 3, e.packets());
        // h2 and h3 pass on everything but h3's and h4's 16 elements: 60
        assertEquals(60 * 4, e.senderBytes());
        assertEquals(3 * 5, e.roundTrips(), "5 windows, each 3 hops round the ring");

        GatherRoutes routes = new GatherRoutes(GatherRoutes.Kind.RING, 4);
        long sends = 0;
        long mostSent = 0;
        for (int m = 0; m < 4; m++) {
            long sent = 0;
            for (int c = 0; c < 10; c++) {
                int targets = routes.targets(m, c).size();
                sends += targets;
                sent += targets == 0 ? 0 : Math.min(8, 76 - 8 * c);
            }
            mostSent = Math.max(mostSent, sent);
        }
        assertEquals(2 * sends, e.packets(), "a send and its acknowledgement");
        assertEquals(mostSent * 4, e.senderBytes());
    }

    @Test
    void busFactorsAreTheBusiestMembersPayloadPerByteOfTheArray() throws Exception {
        Scenario s = scenario(76);
        for (Mode mode : List.of(Mode.INA, Mode.of("ring"))) {
            UseCase.Bandwidth b = UseCases.bandwidth(s, s.jobs().get(0), mode);
            assertEquals(76 * 4, b.arrayBytes(), mode.name());
            // h3 and h4 receive every shard but their own 16 elements
            assertEquals(60.0 / 76, b.busFactor(), 1e-12, mode.name());
        }
        Scenario even = scenario(64);
        for (Mode mode : List.of(Mode.INA, Mode.of("ring"))) {
            assertEquals(
                    3.0 / 4, UseCases.bandwidth(even, even.jobs().get(0), mode).busFactor(), 1e-12, mode.name());
        }
    }
}
