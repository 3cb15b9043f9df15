package org.bitina.usecase.broadcast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broadcast's root is one of its members (the first by default), and it needs someone to send to. */
class BroadcastJobReaderTest {
    @TempDir
    Path dir;

    private static final String TOPOLOGY = """
            topology {
              switches = [s1]
              hosts = [a, b, c]
              links = [ [s1, a], [s1, b], [s1, c] ]
            }
            """;

    private Path file(String job) throws Exception {
        return Files.writeString(
                dir.resolve("b.conf"), TOPOLOGY + "jobs = [{ name = j, kind = broadcast, " + job + " }]\n");
    }

    private String problems(String job) throws Exception {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file(job)));
        return e.problems().toString();
    }

    @Test
    void theRootIsTheFirstMemberUnlessNamedAndTheOthersReceive() throws Exception {
        Scenario s = ScenarioLoader.load(file("members = [b, a, c], data { elements = 1024 }"));
        BroadcastSpec job = (BroadcastSpec) s.jobs().get(0);
        assertEquals("b", job.root());
        assertEquals(List.of("a", "c"), job.receivers());
        assertEquals(List.of("a", "c"), job.multicast().common().members());
        assertEquals("b", job.multicast().source());
        assertEquals(4096, job.multicast().params().bytes());

        job = (BroadcastSpec) ScenarioLoader.load(file("members = all, root = c, data { elements = 8 }"))
                .jobs()
                .get(0);
        assertEquals("c", job.root());
        assertEquals(List.of("a", "b"), job.receivers());
    }

    @Test
    void aRootOutsideTheMembersOrNoOneToSendToIsAClearError() throws Exception {
        String p = problems("members = [a, b], root = c, data { elements = 8 }");
        assertTrue(p.contains("the root 'c' is not a member of the job"), p);
        p = problems("members = [a], data { elements = 8 }");
        assertTrue(p.contains("a broadcast needs at least one member besides its root"), p);
        p = problems("members = [a, b], data { elements = 8, op = max }");
        assertTrue(p.contains("'op'"), p);
    }
}
