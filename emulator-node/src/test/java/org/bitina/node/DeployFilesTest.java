package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * E8: what can be checked of deploy/ without a docker daemon or a Kubernetes cluster: the
 * files parse, the scripts are valid shell, the image copies what exists, and the seeds,
 * member counts and names agree across each file.
 */
class DeployFilesTest {
    private static final Path DEPLOY = Path.of("..", "deploy");
    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());

    private static Map<String, String> env(JsonNode container) {
        Map<String, String> out = new HashMap<>();
        JsonNode e = container.has("env") ? container.get("env") : container.get("environment");
        if (e.isArray()) {
            e.forEach(x -> out.put(x.get("name").asText(), x.get("value").asText()));
        } else {
            e.fields().forEachRemaining(x -> out.put(x.getKey(), x.getValue().asText()));
        }
        return out;
    }

    @Test
    void scriptsAreValidShell() throws Exception {
        for (String s : List.of("netns-cluster.sh", "local-cluster.sh", "entrypoint.sh")) {
            Path f = DEPLOY.resolve(s);
            assertTrue(Files.isExecutable(f), s + " is executable");
            Process p = new ProcessBuilder(s.equals("entrypoint.sh") ? "sh" : "bash", "-n", f.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, s + ": " + out);
        }
    }

    @Test
    void composeMembersJoinTheCoordinatorThatWaitsForAllOfThem() throws Exception {
        JsonNode services = yaml.readTree(DEPLOY.resolve("compose.yaml").toFile()).get("services");
        Map<String, String> coordinator = env(services.get("coordinator"));
        assertEquals("coordinator", coordinator.get("BITINA_ROLE"));
        assertEquals(services.size(), Integer.parseInt(coordinator.get("BITINA_MEMBERS")), "it waits for every service");
        assertTrue(Files.exists(Path.of("..", coordinator.get("BITINA_SCENARIO"))), "the scenario is in the image");
        services.fields().forEachRemaining(s -> {
            Map<String, String> e = env(s.getValue());
            assertEquals(s.getKey(), e.get("BITINA_HOST"), "a member is reached by its service name");
            // issue 14.6: every member holds the same credentials, mounted as the compose secret
            assertEquals("bitina-credentials", s.getValue().get("secrets").get(0).asText(), s.getKey());
            assertEquals("/run/secrets/bitina-credentials", e.get("BITINA_CREDENTIALS"), s.getKey());
            if (!s.getKey().equals("coordinator")) {
                assertEquals("member", e.get("BITINA_ROLE"));
                assertEquals(coordinator.get("BITINA_HOST") + ":25520", e.get("BITINA_SEED"));
            }
        });
    }

    @Test
    void theStatefulSetsFirstPodIsTheSeedBehindAHeadlessService() throws Exception {
        List<JsonNode> docs = yaml.readerFor(JsonNode.class).<JsonNode>readValues(DEPLOY.resolve("k8s/bitina.yaml").toFile()).readAll();
        JsonNode service = docs.stream().filter(d -> d.get("kind").asText().equals("Service")).findFirst().orElseThrow();
        JsonNode set = docs.stream().filter(d -> d.get("kind").asText().equals("StatefulSet")).findFirst().orElseThrow();
        assertEquals("None", service.get("spec").get("clusterIP").asText(), "headless: each pod has a stable DNS name");
        String svc = service.get("metadata").get("name").asText();
        assertEquals(svc, set.get("spec").get("serviceName").asText());
        Map<String, String> e = env(set.get("spec").get("template").get("spec").get("containers").get(0));
        assertEquals(set.get("metadata").get("name").asText() + "-0." + svc + ":25520", e.get("BITINA_SEED"), "the first pod is the seed");
        assertEquals(set.get("spec").get("replicas").asInt(), Integer.parseInt(e.get("BITINA_MEMBERS")));
        assertEquals("statefulset", e.get("BITINA_ROLE"));
        // issue 14.6: the credentials file is in the mounted secret
        JsonNode pod = set.get("spec").get("template").get("spec");
        String secretVolume = null;
        for (JsonNode v : pod.get("volumes")) {
            if (v.has("secret")) {
                secretVolume = v.get("name").asText();
            }
        }
        String mount = null;
        for (JsonNode m : pod.get("containers").get(0).get("volumeMounts")) {
            if (m.get("name").asText().equals(secretVolume)) {
                mount = m.get("mountPath").asText();
            }
        }
        assertTrue(mount != null && e.get("BITINA_CREDENTIALS").startsWith(mount + "/"), "BITINA_CREDENTIALS in the secret's mount " + mount);
    }

    @Test
    void theImageCopiesWhatTheBuildMakesAndTheRepositoryHas() throws Exception {
        List<String> lines = Files.readAllLines(DEPLOY.resolve("Dockerfile"));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ENTRYPOINT [\"/opt/bitina/entrypoint.sh\"]")));
        for (String l : lines) {
            if (l.startsWith("COPY ") && !l.contains("--from=")) {
                String source = l.split("\\s+")[1];
                assertTrue(Files.exists(Path.of("..", source)), "COPY source exists: " + source);
            }
        }
    }
}
