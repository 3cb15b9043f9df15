package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.mode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bitina.job.Status;
import org.bitina.protocol.SwitchTiming;
import org.bitina.run.ModelledTimeModel.Job;
import org.bitina.run.ModelledTimeModel.Network;
import org.bitina.run.ModelledTimeModel.Spec;
import org.bitina.scenario.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The optional switch processing delay makes INA slower in modelled time, by what the
 * independent model says, and by at least one round trip's switch hops; the job stays verified.
 */
class SwitchRealismRunTest {
    private static final long PROCESSING = 300;
    /** A k=4 fat-tree: edge, aggregation and core switches between a host and the core root. */
    private static final int LEVELS = 3;

    @TempDir
    Path dir;

    private Scenario k4(String file, String switchDefaults) throws Exception {
        return Scenarios.write(dir, file, fatTree(4, """
                clock = virtual
                security { mac = off }   # the model's packets are the codec's without the 16-byte S2 tag
                topology {
                  link-defaults { latency = 1us, bandwidth = 10Gbps, mtu = 4096 }
                  %s
                }
                jobs = [{
                  name = ft, kind = allreduce, tenant = 1
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 8000, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 10s
                  baselines = []
                }]
                """.formatted(switchDefaults)));
    }

    @Test
    void processingLengthensAK4AllReduceByItsSwitchHops() throws Exception {
        Scenario free = k4("free.conf", "");
        Scenario slow = k4("slow.conf", "switch-defaults { processing = " + PROCESSING + "ns }");
        assertEquals(SwitchTiming.Spec.FREE, free.capacity().speedOf("core-1"));
        assertEquals(new SwitchTiming.Spec(PROCESSING, 0), slow.capacity().speedOf("edge-1-1"));

        Report.JobReport a = mode(Scenarios.run(free), "ina");
        Report.JobReport b = mode(Scenarios.run(slow), "ina");
        for (Report.JobReport j : new Report.JobReport[] {a, b}) {
            assertEquals(Status.COMPLETE, j.outcome().status(), j.toString());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.toString());
        }
        Job job = new Job(
                ModelledTimeModel.fatTree(4, new Spec(1_000, 10_000_000_000L)).hosts(), 8000, 256, 4, 4);
        Network net = ModelledTimeModel.fatTree(4, new Spec(1_000, 10_000_000_000L));
        double modelFree = ModelledTimeModel.ina(net, job, "core-1").completionNanos();
        double modelSlow =
                ModelledTimeModel.ina(net.processing(PROCESSING), job, "core-1").completionNanos();

        double added = (b.timing().modeledMicros() - a.timing().modeledMicros()) * 1000;
        System.out.printf(
                "switch-realism ina free %.3f us, processing %d ns %.3f us (model %.3f -> %.3f us)%n",
                a.timing().modeledMicros(), PROCESSING, b.timing().modeledMicros(), modelFree / 1000, modelSlow / 1000);
        // a chunk's round trip leaves edge and aggregation switches going up, the core with the
        // result, then aggregation and edge switches coming down: 2 * levels - 1 egresses
        long roundTrip = (2L * LEVELS - 1) * PROCESSING;
        assertTrue(added >= roundTrip, "at least one round trip's processing: " + added + " ns");
        assertTrue(added <= (long) job.chunks() * roundTrip, "at most every chunk's in turn: " + added + " ns");
        assertEquals(modelSlow - modelFree, added, 0.001 * modelSlow, "the model's added time");
        assertEquals(modelSlow, b.timing().modeledMicros() * 1000, 0.001 * modelSlow, "the model's completion");
    }
}
