package org.bitina.usecase.reducescatter;

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
 * A reduce-scatter's estimate and bus factor against a count by hand: 4 members h1..h4, two under
 * each of t1 and t2 below the root s1; 76 elements in chunks of 8, so 10 chunks (the last of 4);
 * members own chunks {0,4,8} (24 elements), {1,5,9} (20), {2,6} (16), {3,7} (16).
 */
class ReduceScatterEstimatesTest {
    @TempDir
    Path dir;

    private Scenario scenario(int elements) throws Exception {
        return Scenarios.write(dir, "rs.conf", """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps }
                  switches = [s1, t1, t2]
                  hosts = [h1, h2, h3, h4]
                  links = [[s1, t1], [s1, t2], [t1, h1], [t1, h2], [t2, h3], [t2, h4]]
                }
                jobs = [{
                  name = rs, kind = reduce-scatter, tenant = 1
                  members = all
                  root = s1
                  data { elements = %d, type = float32, op = sum, chunk = 8, window = 4, seed = 3 }
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
    void inaCountsContributionsTheTwoAggregatesAndTheRootsResultAndNoticePerChunk() throws Exception {
        Scenario s = scenario(76);
        Routing routing = Routing.compute(s.topology());
        PhaseEstimate e = UseCases.estimate(phase(PhasePlanner.plan(s, routing), "ina"), s, routing);
        // per chunk: 4 contributions, t1's and t2's aggregates, s1's result to the owner and notice to the others
        assertEquals(10 * (4 + 2 + 2), e.packets());
        assertEquals(76 * 4, e.senderBytes(), "every member sends its whole array of float32");
        assertEquals(3, e.roundTrips(), "10 chunks in windows of 4");
    }

    @Test
    void theRingCountsNMinusOneSendsPerChunkEachAcknowledged() throws Exception {
        Scenario s = scenario(76);
        Routing routing = Routing.compute(s.topology());
        PhaseEstimate e = UseCases.estimate(phase(PhasePlanner.plan(s, routing), "ring"), s, routing);
        assertEquals(2 * 10 * 3, e.packets());
        // h3 and h4 own 16 elements: they pass on the other 60
        assertEquals(60 * 4, e.senderBytes());
        assertEquals(3 * 3, e.roundTrips(), "3 windows, each 3 hops round the ring");

        // the same from the schedule the ring members run, send by send
        RingReduceScatter ring = new RingReduceScatter(4);
        long sends = 0;
        long mostSent = 0;
        for (int m = 0; m < 4; m++) {
            long sent = 0;
            for (int c = 0; c < 10; c++) {
                sends += ring.sends(m, c).size();
                sent += ring.sends(m, c).isEmpty() ? 0 : Math.min(8, 76 - 8 * c);
            }
            mostSent = Math.max(mostSent, sent);
        }
        assertEquals(2 * sends, e.packets(), "a send and its acknowledgement");
        assertEquals(mostSent * 4, e.senderBytes());
    }

    @Test
    void busFactorsAreTheBusiestMembersPayloadPerByteOfTheArray() throws Exception {
        Scenario s = scenario(76);
        UseCase.Bandwidth ina = UseCases.bandwidth(s, s.jobs().get(0), Mode.INA);
        UseCase.Bandwidth ring = UseCases.bandwidth(s, s.jobs().get(0), Mode.of("ring"));
        assertEquals(76 * 4, ina.arrayBytes());
        assertEquals(76 * 4, ring.arrayBytes());
        assertEquals(1.0, ina.busFactor(), 1e-12, "each member sends its whole array up");
        assertEquals(60.0 / 76, ring.busFactor(), 1e-12, "h3 passes on 60 elements, h1 receives 60 from h4");

        // with 8 chunks, 2 a member: NCCL's (N-1)/N
        Scenario even = scenario(64);
        assertEquals(
                3.0 / 4,
                UseCases.bandwidth(even, even.jobs().get(0), Mode.of("ring")).busFactor(),
                1e-12);
        assertEquals(1.0, UseCases.bandwidth(even, even.jobs().get(0), Mode.INA).busFactor(), 1e-12);
    }
}
