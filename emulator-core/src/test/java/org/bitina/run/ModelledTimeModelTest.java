package org.bitina.run;

import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.mode;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Status;
import org.bitina.run.ModelledTimeModel.Job;
import org.bitina.run.ModelledTimeModel.Network;
import org.bitina.run.ModelledTimeModel.Outcome;
import org.bitina.run.ModelledTimeModel.Spec;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulator's modelled completion times of AllReduce (INA, ring, PS) equal those of an
 * independent event-ordered model ({@link ModelledTimeModel}) within 0.1 %, on a 4-host star
 * and a k=4 fat-tree, with no loss, no faults and timeouts far beyond the run, under the
 * virtual clock (under the real one the parameter server's figures vary from run to run: the
 * port into the server takes frames in the order its switch handles them, not in modelled
 * time). The packets and bytes per directed link must match exactly too: they pin down that
 * routing, ECMP, trees and packet sizes are the same in both, so that a time difference is
 * about time.
 */
class ModelledTimeModelTest {
    private static final double TOLERANCE = 0.001;

    @TempDir
    Path dir;

    @Test
    void fourHostStar() throws IOException, ScenarioException {
        // w3's link is slower in latency and faster in bandwidth than the others: the star is not symmetric
        Scenario s = Scenarios.write(dir, "star.conf", """
                clock = virtual
                security { mac = off }   # the model's packets are the codec's without the 16-byte S2 tag
                topology {
                  switches = [s1]
                  hosts = [w1, w2, w3, w4]
                  link-defaults { latency = 1us, bandwidth = 10Gbps, mtu = 4096 }
                  links = [ [s1, w1], [s1, w2], { between = [s1, w3], latency = 3us, bandwidth = 25Gbps }, [s1, w4] ]
                }
                jobs = [{
                  name = star, kind = allreduce, tenant = 1
                  members = [w1, w2, w3, w4]
                  tree { mode = auto, root = s1 }
                  data { elements = 4000, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 10s
                  baselines = [ring, ps]
                }]
                """);
        Spec dflt = new Spec(1_000, 10_000_000_000L);
        Network net = ModelledTimeModel.star(
                "s1", List.of("w1", "w2", "w3", "w4"), dflt, Map.of("w3", new Spec(3_000, 25_000_000_000L)));
        Job job = new Job(List.of("w1", "w2", "w3", "w4"), 4000, 256, 4, 4);
        check(s, net, job, "s1", "star");
    }

    @Test
    void fatTreeK4() throws IOException, ScenarioException {
        Scenario s = Scenarios.write(dir, "ft4.conf", fatTree(4, """
                clock = virtual
                security { mac = off }   # the model's packets are the codec's without the 16-byte S2 tag
                topology { link-defaults { latency = 1us, bandwidth = 10Gbps, mtu = 4096 } }
                jobs = [{
                  name = ft, kind = allreduce, tenant = 1
                  members = all
                  tree { mode = auto, root = core-1 }
                  data { elements = 8000, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 10s
                  baselines = [ring, ps]
                }]
                """));
        // 32 chunks over 16 ring members: two per owner, so the ring queues too (with 16 or fewer it never would)
        Network net = ModelledTimeModel.fatTree(4, new Spec(1_000, 10_000_000_000L));
        Job job = new Job(net.hosts(), 8000, 256, 4, 4);
        check(s, net, job, "core-1", "ft");
    }

    private static void check(Scenario s, Network net, Job job, String root, String name) {
        // the model builds its own network: it must be the scenario's, link order included (ECMP depends on it)
        List<String> modelLinks = net.links().stream()
                .map(l -> l[0] + "-" + l[1] + " " + net.spec(l[0], l[1]))
                .toList();
        List<String> scenarioLinks = s.topology().links().stream()
                .map(ModelledTimeModelTest::describe)
                .toList();
        assertEquals(scenarioLinks, modelLinks, "the model's network is the scenario's");
        assertEquals(s.topology().hosts().stream().map(Node::name).toList(), net.hosts());
        assertPacketSizes(job);

        Map<String, Outcome> model = new LinkedHashMap<>();
        model.put("ina", ModelledTimeModel.ina(net, job, root));
        model.put("ring", ModelledTimeModel.ring(net, job));
        model.put("ps", ModelledTimeModel.ps(net, job, ModelledTimeModel.psHost(net, job, root)));

        long t0 = System.nanoTime();
        Report r = Scenarios.run(s);
        long wall = (System.nanoTime() - t0) / 1_000_000;

        assertEquals("virtual", r.clock(), "the modelled times of the virtual clock are compared");
        List<Executable> checks = new ArrayList<>();
        for (Map.Entry<String, Outcome> e : model.entrySet()) {
            String m = e.getKey();
            Report.JobReport j = mode(r, m);
            double emulatorNanos = j.timing().modeledMicros() * 1000;
            double modelNanos = e.getValue().completionNanos();
            double rel = Math.abs(emulatorNanos - modelNanos) / modelNanos;
            System.out.printf(
                    "model-check %s %-4s model %10.3f us  emulator %10.3f us  diff %+.4f %%  (%s, wall %d ms)%n",
                    name,
                    m,
                    modelNanos / 1000,
                    j.timing().modeledMicros(),
                    100 * (emulatorNanos - modelNanos) / modelNanos,
                    j.outcome().status(),
                    wall);
            checks.add(() -> assertEquals(Status.COMPLETE, j.outcome().status(), m + ": " + j));
            checks.add(() -> assertEquals(0, j.counts().timeouts(), m + ": no timer may fire"));
            checks.add(() -> assertEquals(
                    linksOf(e.getValue()), linksOf(r, name, m), name + " " + m + ": packets and bytes per link"));
            checks.add(() -> assertTrue(
                    rel <= TOLERANCE,
                    name + " " + m + ": model " + modelNanos / 1000 + " us, emulator "
                            + j.timing().modeledMicros() + " us (" + String.format("%.4f", 100 * rel) + " % apart)"));
        }
        assertAll(checks);
    }

    private static String describe(Link l) {
        return l.a() + "-" + l.b() + " "
                + new Spec(l.spec().latencyNanos(), l.spec().bandwidthBps());
    }

    private static Map<String, String> linksOf(Outcome o) {
        Map<String, String> m = new TreeMap<>();
        o.links().forEach((k, v) -> m.put(k, v[0] + " packets, " + v[1] + " bytes"));
        return m;
    }

    private static Map<String, String> linksOf(Report r, String job, String mode) {
        Map<String, String> m = new TreeMap<>();
        r.links().stream()
                .filter(l -> l.job().equals(job) && l.mode().name().equals(mode) && l.packets() > 0)
                .forEach(l -> m.put(l.from() + ">" + l.to(), l.packets() + " packets, " + l.bytes() + " bytes"));
        return m;
    }

    /** The model writes the packet size out (header, flat bitmap, payload): it must be the codec's. */
    private static void assertPacketSizes(Job job) {
        for (int c = 0; c < job.chunks(); c++) {
            int len = Math.min(job.chunk(), job.elements() - c * job.chunk());
            InaPacket p = new InaPacket(
                    InaHeader.of(PacketType.CONTRIBUTION, 1, 1, c),
                    FlatBitmap.of(job.members().size(), 0),
                    Payload.of(new float[len]));
            assertEquals(PacketCodec.encodedSize(p), job.bytes(c), "size of chunk " + c);
        }
    }
}
