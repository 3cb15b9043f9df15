package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Routing;
import org.bitina.usecase.Phase;
import org.bitina.usecases.PhasePlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report carries the trees the run installed (installedTrees[]), so that a writer draws them without
 * planning the scenario again: one entry per in-network phase, its A-BMs and edges as planned.
 */
class InstalledTreeReportTest {
    @Test
    void fig1sReportHoldsItsVatAsPlannedAndItSurvivesTheJson() throws Exception {
        Report r = Scenarios.run(Scenarios.reference("paper-fig1-allreduce.conf"));
        assertEquals(1, r.installedTrees().size(), r.installedTrees().toString());
        InstalledTree t = r.installedTrees().get(0);
        assertEquals("fig1", t.job());
        assertTrue(t.mode().inNetwork());
        assertEquals("s6", t.root());
        // the seed's Fig. 1: s1 and s7 under s6, two workers each
        assertEquals(Map.of("s1", "[11000000]", "s6", "[11110000]", "s7", "[00110000]"), t.aBms());
        assertTrue(t.edges()
                .containsAll(List.of(
                        new InstalledTree.Edge("s1", "s6"),
                        new InstalledTree.Edge("s7", "s6"),
                        new InstalledTree.Edge("w3", "s7"))));
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(r);
        assertFalse(text.contains("\"empty\""), "no accessor leaks into the contract");
        assertEquals(r.installedTrees(), json.readValue(text, Report.class).installedTrees());
    }

    @Test
    void anABmOverMoreBitsThanObservedTreesPrintIsCountedNotPrintedButTheExportPrintsItWhole(@TempDir Path dir)
            throws Exception {
        Scenario s = Scenarios.write(dir, "wide.conf", Scenarios.STAR4 + """
                jobs = [{ name = ar, kind = allreduce, members = [h1, h2, h3, h4], tree { mode = auto, root = s1 }
                  bit-space { h1 = 1, h2 = 2, h3 = 3, h4 = 5000 }
                  data { elements = 256 } }]
                """);
        List<Phase> phases = PhasePlanner.plan(s, Routing.compute(s.topology()));
        InstalledTree t = InstalledTree.of(phases).get(0);
        assertEquals(Map.of("s1", "(4 of 5000 bits)"), t.aBms());
        assertEquals("s1", t.root());
        assertTrue(
                t.edges().contains(new InstalledTree.Edge("h4", "s1")),
                t.edges().toString());
        Phase ina = phases.get(0);
        String whole = InstalledTree.of(ina, ina.trees().get(0)).aBms().get("s1");
        assertEquals(5002, whole.length(), "the export's A-BM, every bit printed");
    }
}
