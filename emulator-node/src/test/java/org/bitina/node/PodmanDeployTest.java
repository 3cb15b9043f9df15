package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bitina.run.RunComparison;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 (E8): deploy/podman-test.sh builds the image on a Debian base made here and runs
 * bitina in containers: compose (Fig. 1 over three containers), the Kubernetes Job's pods under
 * {@code podman kube play}, and a member killed mid-run. The script checks each run; this test
 * runs it on the test class path and also holds the containers' reports to the determinism
 * contract: the same report as one JVM's run of the same file. Needs root, podman, runc,
 * podman-compose and debootstrap (CI installs them); elsewhere it is skipped, saying why.
 */
class PodmanDeployTest {
    private static final Path SCRIPT = Path.of("..", "deploy", "podman-test.sh");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsPodman() throws Exception {
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), "check")
                .redirectErrorStream(true)
                .start();
        String why = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the check ended");
        Assumptions.assumeTrue(p.exitValue() == 0, why);
    }

    private static JsonNode read(Path f) throws Exception {
        return new ObjectMapper().readTree(f.toFile());
    }

    @Test
    void fig1RunsInComposeAndKubePodsAsInOneJvmAndAKilledMemberContainerEndsTheRunNamingIt() throws Exception {
        Path out = dir.resolve("out");
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true);
        pb.environment().put("BITINA_CP", System.getProperty("java.class.path"));
        pb.environment().put("BITINA_PODMAN_OUT", out.toString());
        pb.redirectOutput(dir.resolve("podman-test.log").toFile());
        Process p = pb.start();
        boolean ended = p.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            p.destroy(); // its trap removes what it made
            p.waitFor(60, TimeUnit.SECONDS);
        }
        String log = Files.readString(dir.resolve("podman-test.log"));
        assertTrue(ended, "the script ended within 10 minutes: " + log);
        assertEquals(0, p.exitValue(), log);

        Path local = dir.resolve("local.json");
        CliTest.Result one = CliTest.cli(
                "run",
                Path.of("..", "topology-configs", "paper-fig1-allreduce.conf").toString(),
                "--quiet",
                "--report",
                local.toString());
        assertEquals(0, one.code(), one.err());
        for (String run : new String[] {"compose-report.json", "kube-report.json"}) {
            JsonNode r = read(out.resolve(run));
            assertEquals(
                    3, new HashSet<>(valuesOf(r.get("placement"))).size(), run + ": devices over three containers");
            // the file's path differs (in the image, in the ConfigMap): the file is the same
            ObjectNode here = (ObjectNode) read(local);
            here.remove("scenario");
            ((ObjectNode) r).remove("scenario");
            assertNull(RunComparison.firstDifference(here, r), run + ": the same report as one JVM's");
        }
        JsonNode loss = read(out.resolve("loss-report.json")).get("jobs").get(0);
        assertEquals("failed", loss.get("status").asText());
        assertTrue(loss.get("note").asText().contains("member pekko://bitina@m2:25520 lost with"), loss.toString());
        assertTrue(
                Files.readString(out.resolve("figures.txt")).contains("after podman run"),
                "the start time is measured");
    }

    private static List<String> valuesOf(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.forEach(v -> out.add(v.asText()));
        return out;
    }
}
