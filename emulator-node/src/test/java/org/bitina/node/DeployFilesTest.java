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

    /** A compose value with its {@code ${VAR:-default}} read as the default, as Compose does when VAR is unset. */
    private static String composeDefault(String v) {
        return v.replaceAll("\\$\\{[A-Z_]+:-([^}]*)}", "$1");
    }

    @Test
    void scriptsAreValidShell() throws Exception {
        for (String s : List.of("netns-cluster.sh", "local-cluster.sh", "entrypoint.sh", "podman-test.sh")) {
            Path f = DEPLOY.resolve(s);
            assertTrue(Files.isExecutable(f), s + " is executable");
            Process p = new ProcessBuilder(s.equals("entrypoint.sh") ? "sh" : "bash", "-n", f.toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, s + ": " + out);
        }
    }

    @Test
    void composeMembersJoinTheCoordinatorThatWaitsForAllOfThemAndItsReportIsInAVolume() throws Exception {
        JsonNode compose = yaml.readTree(DEPLOY.resolve("compose.yaml").toFile());
        JsonNode services = compose.get("services");
        Map<String, String> coordinator = env(services.get("coordinator"));
        assertEquals("coordinator", coordinator.get("BITINA_ROLE"));
        assertEquals(
                services.size(), Integer.parseInt(coordinator.get("BITINA_MEMBERS")), "it waits for every service");
        assertTrue(
                Files.exists(Path.of("..", composeDefault(coordinator.get("BITINA_SCENARIO")))),
                "the scenario is in the image");
        // issue 18.2: the image is built here, never pulled; the report is in a declared volume at the entrypoint's
        // /out
        JsonNode build = services.get("coordinator").get("build");
        assertTrue(
                Files.exists(DEPLOY.resolve(build.get("context").asText())
                        .resolve(build.get("dockerfile").asText())),
                "builds deploy/Dockerfile");
        String volume = services.get("coordinator").get("volumes").get(0).asText();
        assertEquals("/out", volume.substring(volume.indexOf(':') + 1), "the report's folder is a volume");
        assertTrue(compose.get("volumes").has(volume.substring(0, volume.indexOf(':'))), "a named volume");
        assertTrue(compose.get("networks").get("default").get("internal").asBoolean(), "nothing leaves the machine");
        String image = services.get("coordinator").get("image").asText();
        services.fields().forEachRemaining(s -> {
            Map<String, String> e = env(s.getValue());
            assertEquals(s.getKey(), e.get("BITINA_HOST"), "a member is reached by its service name");
            assertEquals(
                    image, s.getValue().get("image").asText(), s.getKey() + " runs the image the coordinator builds");
            // issue 14.6: every member holds the same credentials, mounted as the compose secret
            assertEquals(
                    "bitina-credentials", s.getValue().get("secrets").get(0).asText(), s.getKey());
            assertEquals("/run/secrets/bitina-credentials", e.get("BITINA_CREDENTIALS"), s.getKey());
            if (!s.getKey().equals("coordinator")) {
                assertEquals("member", e.get("BITINA_ROLE"));
                assertEquals(coordinator.get("BITINA_HOST") + ":25520", e.get("BITINA_SEED"));
                assertEquals("never", s.getValue().path("pull_policy").asText(), s.getKey() + " never pulls");
            }
        });
    }

    @Test
    void theIndexedJobsFirstPodIsTheSeedUnderAHeadlessServiceAndTheJobRunsOnce() throws Exception {
        List<JsonNode> docs = yaml.readerFor(JsonNode.class)
                .<JsonNode>readValues(DEPLOY.resolve("k8s/bitina.yaml").toFile())
                .readAll();
        JsonNode service = docs.stream()
                .filter(d -> d.get("kind").asText().equals("Service"))
                .findFirst()
                .orElseThrow();
        JsonNode job = docs.stream()
                .filter(d -> d.get("kind").asText().equals("Job"))
                .findFirst()
                .orElseThrow();
        assertEquals("None", service.get("spec").get("clusterIP").asText(), "headless: each pod has a stable DNS name");
        String svc = service.get("metadata").get("name").asText();
        JsonNode spec = job.get("spec");
        JsonNode pod = spec.get("template").get("spec");
        assertEquals(svc, pod.get("subdomain").asText(), "pods are named under the service");
        assertEquals("Indexed", spec.get("completionMode").asText(), "pod i is JOB-i: index 0 is the coordinator");
        assertEquals(spec.get("completions").asInt(), spec.get("parallelism").asInt(), "all members run at once");
        assertEquals(0, spec.get("backoffLimit").asInt(), "a failed run is not run again");
        assertEquals("Never", pod.get("restartPolicy").asText());
        assertTrue(pod.get("securityContext").get("runAsNonRoot").asBoolean());
        Map<String, String> e = env(pod.get("containers").get(0));
        assertEquals(
                job.get("metadata").get("name").asText() + "-0." + svc + ":25520",
                e.get("BITINA_SEED"),
                "the first pod is the seed");
        assertEquals(svc, e.get("BITINA_SERVICE"), "a pod calls itself by its DNS name");
        assertEquals(spec.get("completions").asInt(), Integer.parseInt(e.get("BITINA_MEMBERS")));
        assertEquals("job", e.get("BITINA_ROLE"));
        assertEquals("1", e.get("BITINA_REPORT_TO_LOG"), "the report is read from the log");
        // issue 14.6: the credentials file is in the mounted secret
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
        assertTrue(
                mount != null && e.get("BITINA_CREDENTIALS").startsWith(mount + "/"),
                "BITINA_CREDENTIALS in the secret's mount " + mount);
    }

    @Test
    void theImageCopiesWhatTheRepositoryHasAndTheBuildMakesAsItsOwnUser() throws Exception {
        List<String> lines = Files.readAllLines(DEPLOY.resolve("Dockerfile"));
        List<String> ignore = Files.readAllLines(Path.of("..", ".dockerignore"));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ENTRYPOINT [\"/opt/bitina/entrypoint.sh\"]")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("HEALTHCHECK ")), "a readiness signal");
        assertTrue(lines.stream().anyMatch(l -> l.matches("USER [1-9][0-9]*(:[0-9]+)?")), "not root");
        assertTrue(lines.stream().anyMatch(l -> l.equals("FROM ${BASE}")), "the base is a build argument");
        assertEquals(
                "**",
                ignore.stream()
                        .filter(l -> !l.isBlank() && !l.startsWith("#"))
                        .findFirst()
                        .orElseThrow(),
                ".dockerignore sends nothing but what it names");
        for (String l : lines) {
            if (!l.startsWith("COPY ")) {
                continue;
            }
            String[] words = l.split("\\s+");
            for (int i = 1; i < words.length - 1; i++) {
                String source = words[i];
                if (source.contains("/target/")) {
                    // a build output: it must be let through .dockerignore
                    String glob = source.endsWith("/") ? source + "*.jar" : source;
                    assertTrue(ignore.contains("!" + glob), "COPY source " + source + " is let into the context");
                } else {
                    assertTrue(Files.exists(Path.of("..", source)), "COPY source exists: " + source);
                    assertTrue(
                            ignore.stream().anyMatch(x -> x.equals("!" + source) || x.equals("!" + source + "/")),
                            source + " in the context");
                }
            }
        }
    }
}
