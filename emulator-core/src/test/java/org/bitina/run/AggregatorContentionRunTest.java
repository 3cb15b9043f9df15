package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.bitina.job.Status;
import org.bitina.scenario.Scenario;
import org.bitina.usecase.allreduce.AllReduceSpec;
import org.junit.jupiter.api.Test;

/**
 * T2 end to end: {@code topology-configs/aggregator-contention.conf}, two AllReduce jobs that do not
 * both fit the switches' pools. Every expected figure comes from the file: the pool's size, each
 * job's declaration (two windows of chunks) and its start.
 */
class AggregatorContentionRunTest {

    @Test
    void theStrictJobIsRefusedTheBestEffortJobPassesChunksOnAndBothResultsAreVerified() throws Exception {
        Scenario s = Scenarios.reference("aggregator-contention.conf");
        AllReduceSpec wide = (AllReduceSpec) s.jobs().get(0);
        AllReduceSpec narrow = (AllReduceSpec) s.jobs().get(1);
        int capacity = s.capacity().of("core-1");
        int wideNeeds = 2 * wide.data().window();
        int narrowNeeds = 2 * narrow.data().window();
        assertTrue(wideNeeds > capacity, "the file's premise: the best-effort job alone overfills the pool");

        Report r = Scenarios.run(s);
        for (Report.JobReport j : r.jobs()) {
            assertEquals(
                    Status.COMPLETE,
                    j.outcome().status(),
                    j.name() + " " + j.mode() + ": " + j.problems().unfinished()
                            + j.outcome().note());
            assertTrue(j.outcome().verified() && j.outcome().asExpected(), j.name() + " " + j.mode());
        }
        Report.JobReport w = mixed(r, "wide");
        Report.JobReport n = mixed(r, "narrow");

        // wide starts first (at 0) and is granted what the empty pool has, up to what it declared
        int granted = Math.min(wideNeeds, capacity);
        assertEquals("ina", w.mode().name());
        assertTrue(w.plan().admission().admitted());
        assertEquals(wideNeeds, w.plan().admission().entries());
        PoolReport pool = w.pool();
        assertNotNull(pool);
        assertEquals("best-effort", pool.admission());
        for (PoolReport.Switch sw : pool.switches()) {
            assertEquals(s.capacity().of(sw.node()), sw.capacity(), sw.node());
            assertEquals(granted, sw.granted(), sw.node());
            assertTrue(sw.peak() <= sw.capacity(), sw.node() + ": never more live than the pool holds");
            // a contribution passes on only where the pool was full
            assertTrue(sw.passThroughs() == 0 || sw.peak() == sw.capacity(), sw.node() + " " + sw);
        }

        // narrow starts later, while wide holds its grant: refused where the free rest is less than it needs
        int free = capacity - granted;
        assertTrue(free < narrowNeeds);
        assertEquals("ring", n.mode().name(), "a refused strict job runs its host baseline");
        assertFalse(n.plan().admission().admitted());
        assertEquals(narrowNeeds, n.plan().admission().entries());
        assertEquals(
                "switch core-1 has room for " + free + " aggregation entries; the job needs " + narrowNeeds,
                n.plan().admission().reason());
        assertNull(n.pool(), "a ring holds no switch state");

        // the straggler holds each window of chunks at the switches on its way up, core-1 the root among them: of a
        // window, as many chunks as the pool has entries find one at the root, the rest are folded there outside it
        int chunks = wide.data().elements() / wide.data().chunk();
        int windows = chunks / wide.data().window();
        long expectedFolds = (long) windows * (wide.data().window() - capacity);
        Map<String, PoolReport.Switch> bySwitch = new HashMap<>();
        pool.switches().forEach(sw -> bySwitch.put(sw.node(), sw));
        assertEquals(expectedFolds, bySwitch.get("core-1").rootFolds());
        assertEquals(expectedFolds, pool.rootFolds(), "only the root folds");
        // below the root, every contribution of a folded chunk that met a full pool passed on: at least two per chunk
        // at the straggler's edge switch (its two hosts)
        assertTrue(
                bySwitch.get("edge-4-2").passThroughs() >= 2 * expectedFolds,
                bySwitch.get("edge-4-2").toString());
        assertEquals(
                pool.switches().stream()
                        .mapToLong(PoolReport.Switch::passThroughs)
                        .sum(),
                pool.passThroughs());
    }

    private static Report.JobReport mixed(Report r, String job) {
        return r.jobs().stream()
                .filter(j -> j.name().equals(job)
                        && j.shared() != null
                        && !j.shared().alone())
                .findFirst()
                .orElseThrow();
    }
}
