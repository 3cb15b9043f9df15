package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.bitina.job.Mode;
import org.bitina.scenario.Schedule;
import org.junit.jupiter.api.Test;

/**
 * links[]'s {@code mode} is typed (a job's mode or a shared world's mix) and written as the name it
 * always was; a report read back (it crosses JVMs as CBOR) gets the same types.
 */
class LinkScopeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LinkReport row(String job, LinkScope scope) {
        return new LinkReport(job, scope, "edge-1-1", "h1", 10, 10_960, 400, 0, 1096, 0);
    }

    @Test
    void aWorldsRowAndAJobsRowWriteTheirNamesAndReadBackAsTheirTypes() throws Exception {
        List<LinkReport> rows = List.of(
                row(LinkScope.SHARED_JOB, new LinkScope.OfWorld(Schedule.World.INA)),
                row(LinkScope.SHARED_JOB, new LinkScope.OfWorld(Schedule.World.BASELINE)),
                row("ar1", new LinkScope.OfMode(Mode.INA)),
                row("ar1", new LinkScope.OfMode(Mode.of("ring"))));
        for (LinkReport r : rows) {
            String text = JSON.writeValueAsString(r);
            JsonNode tree = JSON.readTree(text);
            assertEquals(r.job(), tree.get("job").asText());
            assertEquals(r.mode().name(), tree.get("mode").asText(), text);
            assertEquals(r, JSON.readValue(text, LinkReport.class), text);
        }
        assertEquals(
                "ina",
                JSON.readTree(JSON.writeValueAsString(rows.get(0))).get("mode").asText());
        assertEquals(
                "baseline",
                JSON.readTree(JSON.writeValueAsString(rows.get(1))).get("mode").asText());
    }

    @Test
    void aSharedRowsWorldIsWrittenByItsName() throws Exception {
        SharedRun s = SharedRun.started(Schedule.World.BASELINE, false, 20_000);
        JsonNode tree = JSON.readTree(JSON.writeValueAsString(s));
        assertEquals("baseline", tree.get("world").asText());
        assertEquals(s, JSON.readValue(JSON.writeValueAsString(s), SharedRun.class));
    }
}
