package org.bitina.run;

import static org.bitina.run.Scenarios.assertSameRun;
import static org.bitina.run.Scenarios.fatTree;
import static org.bitina.run.Scenarios.run;
import static org.bitina.run.Scenarios.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.bitina.job.Status;
import org.bitina.protocol.TimeCurve;
import org.bitina.protocol.TrafficFlows;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.usecase.traffic.TrafficDriverSpec;
import org.bitina.usecase.traffic.TrafficPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DCQCN end to end (issue 45 item 2): an incast beside two tenants' AllReduce jobs on 32 KiB
 * buffers, without congestion control and with it. With DCQCN the switches mark, the receiver's ACKs
 * carry CNPs, the senders cut their rates, and fewer packets are dropped at the queues.
 */
class CongestionRunTest {
    @TempDir
    Path dir;

    private Scenario incast(String control) throws IOException, ScenarioException {
        return write(dir, control + ".conf", fatTree(4, """
                topology.link-defaults { buffer = 32KiB }
                schedule = shared
                worlds = [ina]
                alone = false
                congestion { control = %s, kmin = 4KiB, kmax = 16KiB, pmax = 20%%, increase-timer = 55us }
                traffic = [{ kind = incast, to = h16, load = 70%%, flow-size = 64KiB, start = 0us, stop = 40us, seed = 5 }]
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-2 }
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                }]
                """.formatted(control)));
    }

    private static long queueDrops(Report r) {
        return r.links().stream().mapToLong(LinkReport::queueDrops).sum();
    }

    @Test
    void aReceiverWaitsForEveryFlowOfItsQueuePairSentAtTheLowestRate() throws IOException, ScenarioException {
        Scenario s = incast("dcqcn");
        TrafficPlan plan = TrafficPlan.of(s, 0);
        TrafficDriverSpec d = plan.drivers().get(0);
        long bitsPerPacket = 8L * (d.payloadBytes() + d.overheadBytes());
        Map<String, Long> bits = new HashMap<>();
        long lastStart = 0;
        for (TrafficFlows.Flow f : plan.flows()) {
            long packets = (f.bytes() + d.payloadBytes() - 1) / d.payloadBytes();
            bits.merge(f.from() + ">" + f.to(), packets * bitsPerPacket, Long::sum);
            lastStart = Math.max(lastStart, f.startNanos());
        }
        long slowest = bits.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long min = plan.spec().congestion().minRateBps();
        // a flow slowed to the floor behind its queue pair's others is not given up on while it still sends
        assertTrue(plan.giveUpNanos() >= slowest * 1_000_000_000L / min, plan.giveUpNanos() + " " + slowest);
        assertTrue(plan.giveUpNanos() > lastStart);
    }

    @Test
    void dcqcnMarksNotifiesCutsRatesAndDropsLessThanNoControlOnAnIncast() throws IOException, ScenarioException {
        Report none = run(incast("none"));
        Report dcqcn = run(incast("dcqcn"));
        for (Report r : new Report[] {none, dcqcn}) {
            for (Report.JobReport j : r.jobs()) {
                assertEquals(Status.COMPLETE, j.outcome().status(), j.name() + " " + j.mode());
                assertTrue(j.outcome().verified(), j.name() + " " + j.mode());
            }
            TrafficReport t = r.traffic().get(0);
            assertEquals(t.flows(), t.finished(), "every flow finishes, through its resends: " + t);
        }
        TrafficReport off = none.traffic().get(0);
        TrafficReport on = dcqcn.traffic().get(0);
        assertNull(off.congestion(), "no congestion control, no congestion figures: " + off);
        assertNotNull(on.congestion(), on.toString());
        assertEquals("dcqcn", on.congestion().control());
        assertTrue(queueDrops(none) > 0, "the incast overflows 32 KiB buffers without control");
        assertTrue(
                queueDrops(dcqcn) < queueDrops(none),
                "DCQCN drops less: " + queueDrops(dcqcn) + " against " + queueDrops(none));
        assertTrue(on.congestion().ecnMarked() > 0, on.toString());
        assertTrue(
                on.congestion().cnps() > 0
                        && on.congestion().cnps() <= on.congestion().ecnMarked(),
                "a CNP answers a marked packet, at most one per flow per interval: " + on);
        assertTrue(on.congestion().rateCuts() > 0, on.toString());
        assertTrue(on.congestion().lowestRateGbps() < 100, "the senders slowed down: " + on);
        assertTrue(on.retransmissions() < off.retransmissions(), on + " against " + off);
        // INA's workers: the marks came back on the results, and the windows were cut (AIMD)
        for (Report.JobReport j : dcqcn.jobs()) {
            Map<String, Long> st = j.stats();
            assertTrue(st.get("markedResults") > 0 && st.get("windowCuts") > 0, j.name() + " " + st);
            assertTrue(st.get("smallestWindow") < 64, j.name() + " " + st);
        }
        // over modelled time: the curves' extremes are the figures the rows print
        TimeCurve.Range rate = on.congestion().rate();
        assertNotNull(rate, "the senders' rate over modelled time");
        assertEquals(
                Math.round(on.congestion().lowestRateGbps() * 1e9),
                rate.points().stream().mapToLong(p -> p[1]).min().orElseThrow(),
                "the lowest rate is the curve's least");
        assertEquals(100_000_000_000L, rate.points().get(0)[2], "the senders start at line rate");
        for (Report.JobReport j : dcqcn.jobs()) {
            TimeCurve.Range w = j.timing().window();
            assertNotNull(w, j.name());
            assertEquals(
                    (long) j.stats().get("smallestWindow"),
                    w.points().stream().mapToLong(p -> p[1]).min().orElseThrow(),
                    j.name() + ": the smallest window is the curve's least");
            assertTrue(w.points().stream().allMatch(p -> p[1] >= 1 && p[2] <= 64), j.name());
        }
        for (Report.JobReport j : none.jobs()) {
            assertFalse(j.stats().containsKey("windowCuts"), "no congestion control, no window: " + j.stats());
            assertNull(j.timing().window(), "no congestion control, no window curve");
        }
        assertSameRun(dcqcn, run(incast("dcqcn")), "the same incast under DCQCN");
    }

    @Test
    void underDcqcnTheHostBaselinesReactAParameterServersWorkersByAimdAndARingsMembersByPacing()
            throws IOException, ScenarioException {
        Report r = run(write(dir, "baselines.conf", fatTree(4, """
                topology.link-defaults { buffer = 32KiB }
                schedule = shared
                worlds = [baseline]
                alone = false
                congestion { control = dcqcn, kmin = 4KiB, kmax = 16KiB, pmax = 20%, increase-timer = 55us }
                traffic = [{ kind = incast, to = h16, load = 70%, flow-size = 64KiB, start = 0us, stop = 40us, seed = 5 }]
                jobs = [{
                  name = a, kind = allreduce, tenant = 1
                  members = [h1, h3, h5, h7, h9, h11, h13, h15]
                  tree { mode = auto, root = core-1 }
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 64, seed = 3 }
                  baselines = [ps]
                }, {
                  name = b, kind = allreduce, tenant = 2
                  members = [h2, h4, h6, h8, h10, h12, h14, h16]
                  tree { mode = auto, root = core-2 }
                  data { elements = 8192, type = float32, op = sum, chunk = 256, window = 64, seed = 4 }
                  baselines = [ring]
                }]
                """)));
        Report.JobReport ps = r.jobs().stream()
                .filter(j -> j.mode().toString().equals("ps"))
                .findFirst()
                .orElseThrow();
        Report.JobReport ring = r.jobs().stream()
                .filter(j -> j.mode().toString().equals("ring"))
                .findFirst()
                .orElseThrow();
        for (Report.JobReport j : new Report.JobReport[] {ps, ring}) {
            assertEquals(Status.COMPLETE, j.outcome().status(), j.name() + " " + j.mode());
            assertTrue(j.outcome().verified(), j.name() + " " + j.mode());
        }
        // the parameter server's results carry its contributions' marks: its workers cut their windows
        assertTrue(
                ps.stats().get("markedResults") > 0 && ps.stats().get("windowCuts") > 0,
                ps.stats().toString());
        assertNotNull(ps.timing().window(), "the PS workers' windows over modelled time");
        assertNull(ps.timing().rate());
        // the ring's members: CNPs on their acknowledgements, rates cut, paced
        Map<String, Long> st = ring.stats();
        assertTrue(st.get("ecnMarked") > 0 && st.get("cnpsSent") > 0, st.toString());
        assertTrue(
                st.get("cnpsTaken") > 0 && st.get("cnpsTaken") <= st.get("cnpsSent"),
                "a CNP is taken where it arrives (a full queue may drop its ACK): " + st);
        assertTrue(st.get("rateCuts") > 0 && st.get("lowestRateBps") < 100_000_000_000L, st.toString());
        assertNotNull(ring.timing().rate(), "the ring members' rates over modelled time");
        assertEquals(
                (long) st.get("lowestRateBps"),
                ring.timing().rate().points().stream()
                        .mapToLong(p -> p[1])
                        .min()
                        .orElseThrow());
        assertNull(ring.timing().window());
    }

    @Test
    void underDcqcnAnMoeSourceCutsItsTokenWindowOnMarkedCombinesInNetworkAndAllToAll()
            throws IOException, ScenarioException {
        Report r = run(write(dir, "moe.conf", fatTree(4, """
                topology.link-defaults { buffer = 32KiB }
                schedule = shared
                worlds = [ina, baseline]
                alone = false
                congestion { control = dcqcn, kmin = 4KiB, kmax = 16KiB, pmax = 20%, increase-timer = 55us }
                traffic = [{ kind = incast, to = h16, load = 70%, flow-size = 64KiB, start = 0us, stop = 40us, seed = 5 }]
                jobs = [{
                  name = m, kind = moe, tenant = 1
                  sources = [h1, h2, h3, h4]
                  experts = [{ prefix = e, hosts = ["h5..h16"] }]
                  moe { top-k = 2, hidden = 64, tokens-per-source = 256, capacity-factor = 1.25, seed = 5 }
                  baselines = [all-to-all]
                }]
                """)));
        assertEquals(2, r.jobs().size());
        for (Report.JobReport j : r.jobs()) {
            assertEquals(Status.COMPLETE, j.outcome().status(), j.mode().toString());
            assertTrue(j.outcome().verified(), j.mode().toString());
            Map<String, Long> st = j.stats();
            assertTrue(st.get("markedResults") > 0 && st.get("windowCuts") > 0, j.mode() + " " + st);
            TimeCurve.Range w = j.timing().window();
            assertNotNull(w, j.mode() + ": the sources' windows over modelled time");
            assertEquals(
                    (long) st.get("smallestWindow"),
                    w.points().stream().mapToLong(p -> p[1]).min().orElseThrow());
        }
    }

    @Test
    void underDcqcnAMulticastSourcePacesItsRoundsAtTheRateTheReceiversCnpsLeaveIt()
            throws IOException, ScenarioException {
        Report r = run(write(dir, "multicast.conf", fatTree(4, """
                topology.link-defaults { buffer = 32KiB }
                schedule = shared
                worlds = [ina, baseline]
                alone = false
                congestion { control = dcqcn, kmin = 4KiB, kmax = 16KiB, pmax = 20%, increase-timer = 55us }
                traffic = [{ kind = incast, to = h16, load = 70%, flow-size = 64KiB, start = 0us, stop = 40us, seed = 5 }]
                jobs = [{
                  name = push, kind = reliable-multicast, tenant = 1
                  source = h1
                  receivers = all
                  data { bytes = 256KiB, packet = 4000, window = 16, seed = 21 }
                  ack { per = window, tree = composed }
                  max-rounds = 8
                }]
                """)));
        assertFalse(r.jobs().isEmpty());
        for (Report.JobReport j : r.jobs()) {
            assertEquals(Status.COMPLETE, j.outcome().status(), j.mode().toString());
            assertTrue(j.outcome().verified(), j.mode().toString());
            Map<String, Long> st = j.stats();
            assertTrue(st.get("ecnMarked") > 0 && st.get("cnpsSent") > 0, j.mode() + " " + st);
            assertTrue(st.get("cnpsTaken") > 0 && st.get("rateCuts") > 0, j.mode() + " " + st);
            TimeCurve.Range rate = j.timing().rate();
            assertNotNull(rate, j.mode() + ": the source's rate over modelled time");
            // the curve holds the rates packets left at: a cut recovered from before the next round sends none
            assertTrue(
                    rate.points().stream().mapToLong(p -> p[1]).min().orElseThrow() >= st.get("lowestRateBps"),
                    rate.points().toString());
            assertTrue(st.get("lowestRateBps") < 100_000_000_000L, st.toString());
        }
    }
}
