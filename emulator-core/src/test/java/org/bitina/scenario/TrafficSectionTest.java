package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.TrafficFlows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The top-level {@code traffic} list (T3): what it reads, and each bad entry refused at its line with a clear error. */
class TrafficSectionTest {
    @TempDir
    Path dir;

    private static final String HEAD = """
            topology { generator { kind = fat-tree, k = 4 } }
            schedule = shared
            jobs = [{ name = a, kind = allreduce, tenant = 1, members = [h1, h2], tree { mode = auto, root = core-1 },
                      data { elements = 256 } }]
            """;

    private Scenario load(String text) throws IOException, ScenarioException {
        Path p = dir.resolve("t.conf");
        Files.writeString(p, text);
        return ScenarioLoader.load(p);
    }

    private List<String> problems(String traffic) throws IOException {
        Path p = dir.resolve("bad.conf");
        Files.writeString(p, HEAD + traffic);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        return e.problems().stream().map(Problem::toString).toList();
    }

    private void assertRefused(String traffic, String message) throws IOException {
        List<String> found = problems(traffic);
        String line = dir.resolve("bad.conf") + ":5: ";
        assertTrue(
                found.stream().anyMatch(m -> m.startsWith(line) && m.contains(message)),
                () -> "expected '" + line + "..." + message + "' in\n" + String.join("\n", found));
    }

    @Test
    void anEntryIsReadWithItsDefaults() throws IOException, ScenarioException {
        Scenario s =
                load(HEAD + "traffic = [{ kind = incast, to = h3, load = 25%, stop = 40us, hosts = \"pod:1\" }]\n");
        assertEquals(1, s.traffic().size());
        TrafficFlows.Spec t = s.traffic().get(0);
        assertEquals(TrafficFlows.Kind.INCAST, t.kind());
        assertEquals(List.of("h1", "h2", "h3", "h4"), t.hosts());
        assertEquals("h3", t.to());
        assertEquals(0.25, t.load(), 1e-12);
        assertEquals(64 * 1024, t.flowBytes());
        assertEquals(0, t.startNanos());
        assertEquals(40_000, t.stopNanos());
        assertEquals(1, t.seed());
        // every host of the topology when hosts is left out
        Scenario all = load(HEAD + "traffic = [{ kind = permutation, load = 30%, stop = 40us }]\n");
        assertEquals(16, all.traffic().get(0).hosts().size());
    }

    @Test
    void badEntriesAreRefusedAtTheirLine() throws IOException {
        assertRefused("traffic = [{ kind = permutation, stop = 40us }]\n", "a traffic entry needs load");
        assertRefused("traffic = [{ kind = permutation, load = 30% }]\n", "a traffic entry needs stop");
        assertRefused("traffic = [{ kind = broadcast, load = 30%, stop = 40us }]\n", "traffic[0].kind");
        assertRefused("traffic = [{ kind = incast, load = 30%, stop = 40us }]\n", "incast traffic needs to = HOST");
        assertRefused("traffic = [{ kind = uniform, to = h1, load = 30%, stop = 40us }]\n", "only incast traffic has");
        assertRefused(
                "traffic = [{ kind = incast, to = h9, hosts = [h1, h2], load = 30%, stop = 40us }]\n",
                "is not one of the entry's hosts");
        assertRefused("traffic = [{ kind = uniform, hosts = [h1], load = 30%, stop = 40us }]\n", "at least two hosts");
        assertRefused("traffic = [{ kind = uniform, hosts = [h1, core-1], load = 30%, stop = 40us }]\n", "is no host");
        assertRefused("traffic = [{ kind = uniform, load = 0%, stop = 40us }]\n", "must be above 0");
        assertRefused(
                "traffic = [{ kind = uniform, load = 30%, start = 50us, stop = 40us }]\n", "must come after start");
        assertRefused(
                "traffic = [{ kind = uniform, load = 30%, stop = 40us, colour = red }]\n", "unknown key 'colour'");
        assertRefused("traffic = [{ kind = uniform, load = 90%, flow-size = 1KiB, stop = 1s }]\n", "flows, more than");
    }

    @Test
    void trafficNeedsTheSharedScheduleAndATenantOfItsOwn() throws IOException {
        Path p = dir.resolve("seq.conf");
        Files.writeString(
                p,
                HEAD.replace("schedule = shared\n", "") + "traffic = [{ kind = uniform, load = 30%, stop = 40us }]\n");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        assertTrue(e.getMessage().contains("traffic is for schedule = shared"), e.getMessage());
        Files.writeString(
                p,
                HEAD.replace("tenant = 1", "tenant = " + TrafficFlows.TENANT)
                        + "traffic = [{ kind = uniform, load = 30%, stop = 40us }]\n");
        e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p));
        assertTrue(e.getMessage().contains("which background traffic's packets carry"), e.getMessage());
    }

    @Test
    void congestionControlIsTheFilesUnlessAnEntryChoosesAndDcqcnMarksEveryLinkWithRed()
            throws IOException, ScenarioException {
        String two = "traffic = [{ kind = incast, to = h3, load = 25%, stop = 40us },"
                + " { kind = permutation, load = 10%, stop = 40us, congestion = none }]\n";
        Scenario off = load(HEAD + two);
        assertTrue(off.traffic().stream().allMatch(t -> t.congestion() == null));
        assertTrue(off.topology().links().stream().noneMatch(l -> l.spec().ecnMarking()), "nothing marks");

        Scenario on = load(HEAD + "congestion { control = dcqcn, kmin = 4KiB, kmax = 16KiB, pmax = 20%,"
                + " increase-timer = 55us, rate-ai = 40Mbps }\n" + two);
        Dcqcn.Settings d = on.traffic().get(0).congestion();
        assertEquals(4096, d.kminBytes());
        assertEquals(16384, d.kmaxBytes());
        assertEquals(0.2, d.pmax(), 1e-12);
        assertEquals(55_000, d.increaseNanos());
        assertEquals(40_000_000, d.rateAiBps());
        assertEquals(Dcqcn.Settings.DEFAULTS.g(), d.g(), "what the file leaves out is the default");
        assertEquals(null, on.traffic().get(1).congestion(), "the entry's own choice");
        for (var l : on.topology().links()) {
            assertEquals(4096, l.spec().ecnThresholdBytes());
            assertEquals(16384, l.spec().ecnMaxBytes());
        }
        assertEquals(
                Dcqcn.Settings.DEFAULTS,
                load(HEAD + "congestion = dcqcn\n" + two).traffic().get(0).congestion(),
                "congestion = dcqcn takes every default");
    }

    @Test
    void everyJobReactsUnderTheFilesDcqcnUnlessItSaysNone() throws IOException, ScenarioException {
        String jobs = "topology { generator { kind = fat-tree, k = 4 } }\n"
                + "schedule = shared\n"
                + "congestion = dcqcn\n"
                + "jobs = [{ name = a, kind = allreduce, tenant = 1, members = [h1, h2],"
                + " tree { mode = auto, root = core-1 }, data { elements = 256 } },\n"
                + "  { name = b, kind = allreduce, tenant = 2, members = [h3, h4],"
                + " tree { mode = auto, root = core-1 }, data { elements = 256 }, congestion = none }]\n";
        Scenario s = load(jobs);
        assertTrue(s.jobs().get(0).common().congestionControl());
        assertFalse(s.jobs().get(1).common().congestionControl());
        assertTrue(
                s.topology().links().stream().allMatch(l -> l.spec().ecnMarking()),
                "a job that reacts needs the switches to mark, with no traffic in the file");
        Scenario off = load(jobs.replace("congestion = dcqcn\n", ""));
        assertFalse(off.jobs().get(0).common().congestionControl(), "none by default");
        assertTrue(off.topology().links().stream().noneMatch(l -> l.spec().ecnMarking()), "and nothing marks");
    }

    @Test
    void aLinkFaultUnderDcqcnNamesTheLinkTheRunMarksOn() throws IOException, ScenarioException {
        // RED gives every link other properties after the faults were read: the fault must still name the
        // running topology's link, or routing (which tells a down link by equality) keeps using it
        Scenario s = load(HEAD
                + "congestion = dcqcn\n"
                + "traffic = [{ kind = incast, to = h3, load = 25%, stop = 40us }]\n"
                + "faults = [{ at = 2us, kind = link-down, link = [edge-1-1, agg-1-1] }]\n");
        FaultSpec f = s.faults().get(0);
        assertTrue(s.topology().links().contains(f.link()), f.link().toString());
        assertTrue(f.link().spec().ecnMarking(), "the marking link");
    }

    @Test
    void badCongestionSettingsAreRefusedAtTheirKeys() throws IOException {
        List<String> found = problems("congestion { control = dctcp, kmin = 8KiB, kmax = 4KiB, g = 2 }\n");
        String text = String.join("\n", found);
        assertTrue(text.contains("congestion.control"), text);
        assertTrue(text.contains("kmax (4096 bytes) must be at least kmin (8192 bytes)"), text);
        assertTrue(text.contains("congestion.g must be at most 1"), text);
    }
}
