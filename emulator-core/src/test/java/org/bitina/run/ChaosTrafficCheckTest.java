package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bitina.chaos.ChaosPlans;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;
import org.bitina.scenario.Schedule.World;
import org.bitina.usecase.traffic.TrafficPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos suite's background-traffic accounts catch what they are for: a report whose traffic
 * entries add up keeps them, and each way of not adding up (a world's entry missing, a flow not
 * started, more finished than started, bytes outside what the flows could carry, a flow lost where
 * nothing could be lost) is named.
 */
class ChaosTrafficCheckTest {
    private static final ChaosPlans.Plan LOSSY = new ChaosPlans.Plan(1, "", false);
    private static final ChaosPlans.Plan LOSSLESS = new ChaosPlans.Plan(1, "", true);

    @TempDir
    Path dir;

    private Scenario scenario() throws Exception {
        Path f = dir.resolve("t.conf");
        Files.writeString(f, """
                topology {
                  link-defaults { latency = 1us, bandwidth = 100Gbps, mtu = 4096 }
                  generator { kind = leaf-spine, spines = 2, leaves = 2, hosts-per-leaf = 2 }
                }
                schedule = shared
                worlds = [ina, baseline]
                alone = true
                jobs = [{ name = t1, kind = allreduce, tenant = 1, members = all, tree { mode = auto, root = spine-1 }
                  data { elements = 1024, type = int32, op = sum, chunk = 256, window = 4, seed = 1 } }]
                traffic = [{ kind = uniform, hosts = "all", load = 30%, flow-size = 16KiB, start = 0us, stop = 50us, seed = 4 }]
                """);
        return ScenarioLoader.load(f);
    }

    private static Report withTraffic(List<TrafficReport> t) {
        return new Report(
                "t.conf", "virtual", List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), null, List.of(),
                List.of(), List.of(), List.of(), t, Map.of());
    }

    private static TrafficReport entry(World world, int flows, int finished, long bytes) {
        return entry(world, flows, finished, bytes, List.of());
    }

    private static TrafficReport entry(World world, int flows, int finished, long bytes, List<String> gaveUp) {
        return new TrafficReport(
                0,
                "uniform",
                world,
                world == null,
                flows,
                finished,
                bytes,
                1,
                2,
                3,
                null,
                null,
                0,
                0,
                0,
                0,
                gaveUp,
                null);
    }

    private static List<TrafficReport> honest(int flows, long flowBytes) {
        List<TrafficReport> out = new ArrayList<>();
        for (World w : new World[] {World.INA, World.BASELINE, null}) {
            out.add(entry(w, flows, flows, flows * flowBytes));
        }
        return out;
    }

    @Test
    void trafficWhoseAccountsAddUpKeepsEveryInvariant() throws Exception {
        Scenario s = scenario();
        int flows = TrafficPlan.of(s, 0).flows().size();
        assertTrue(flows > 0, "the schedule has flows");
        assertEquals(List.of(), ChaosCheck.trafficViolations(LOSSLESS, s, withTraffic(honest(flows, 16384))));
        // a lossy plan may cut a flow off: fewer finished, the bytes of what arrived, the flow named
        List<TrafficReport> lossy = honest(flows, 16384);
        lossy.set(0, entry(World.INA, flows, flows - 1, (flows - 1) * 16384L + 4000, List.of("flow 3 h1->h2: ...")));
        assertEquals(List.of(), ChaosCheck.trafficViolations(LOSSY, s, withTraffic(lossy)));
        // but lost packets are resent: a flow unfinished and not given up on is a violation
        lossy.set(0, entry(World.INA, flows, flows - 1, (flows - 1) * 16384L + 4000));
        List<String> v = ChaosCheck.trafficViolations(LOSSY, s, withTraffic(lossy));
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.get(0).contains("1 flows did not finish, 0 named as given up"), v.get(0));
    }

    @Test
    void eachAccountThatDoesNotAddUpIsNamed() throws Exception {
        Scenario s = scenario();
        int flows = TrafficPlan.of(s, 0).flows().size();
        long size = 16384;
        List<TrafficReport> noAlone = honest(flows, size).subList(0, 2);
        assertTrue(ChaosCheck.trafficViolations(LOSSY, s, withTraffic(noAlone))
                .get(0)
                .contains("expected 1 x 3"));

        List<TrafficReport> skipped = honest(flows, size);
        skipped.set(1, entry(World.BASELINE, flows - 1, flows - 1, (flows - 1) * size));
        assertTrue(ChaosCheck.trafficViolations(LOSSY, s, withTraffic(skipped))
                .get(0)
                .contains("flows started, its schedule has " + flows));

        List<TrafficReport> overFinished = honest(flows, size);
        overFinished.set(0, entry(World.INA, flows, flows + 1, flows * size));
        assertTrue(String.join("\n", ChaosCheck.trafficViolations(LOSSY, s, withTraffic(overFinished)))
                .contains("flows finished of " + flows + " started"));

        List<TrafficReport> tooFewBytes = honest(flows, size);
        tooFewBytes.set(0, entry(World.INA, flows, flows, flows * size - 1));
        List<TrafficReport> tooManyBytes = honest(flows, size);
        tooManyBytes.set(0, entry(World.INA, flows, flows, flows * size + 1));
        for (List<TrafficReport> bad : List.of(tooFewBytes, tooManyBytes)) {
            assertTrue(ChaosCheck.trafficViolations(LOSSY, s, withTraffic(bad))
                    .get(0)
                    .contains("bytes arrived, outside"));
        }

        List<TrafficReport> lost = honest(flows, size);
        lost.set(2, entry(null, flows, flows - 1, (flows - 1) * size, List.of("flow 0 h1->h2: ...")));
        assertEquals(List.of(), ChaosCheck.trafficViolations(LOSSY, s, withTraffic(lost)));
        assertTrue(ChaosCheck.trafficViolations(LOSSLESS, s, withTraffic(lost))
                .get(0)
                .contains("nothing could be lost, yet 1 flows did not finish"));
    }

    @Test
    void sharedPlansCarryEveryKindOfTrafficAndLoadAsScenarios() throws Exception {
        Set<String> kinds = new TreeSet<>();
        int without = 0;
        for (long seed = 1; seed <= 400; seed++) {
            ChaosPlans.Plan plan = ChaosPlans.generateShared(seed);
            Path f = dir.resolve("shared-" + seed + ".conf");
            Files.writeString(f, plan.text());
            Scenario s = ScenarioLoader.load(f);
            if (s.traffic().isEmpty()) {
                without++;
            }
            s.traffic().forEach(t -> kinds.add(t.kind().configName()));
        }
        assertEquals(Set.of("all-to-all", "incast", "permutation", "uniform"), kinds);
        assertTrue(without > 0 && without < 400, "some plans without traffic, most with: " + without);
    }
}
