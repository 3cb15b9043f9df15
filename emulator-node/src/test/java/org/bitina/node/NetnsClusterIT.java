package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * E8: deploy/netns-cluster.sh runs each member in its own network namespace, joined by veth
 * pairs to a bridge; the members talk over real interfaces, and one can be cut off. Needs
 * root and `ip netns` (these machines have both); elsewhere the test is skipped, saying why.
 */
class NetnsClusterIT {
    @TempDir
    Path dir;

    @BeforeAll
    static void needsNetworkNamespaces() throws Exception {
        Process p = new ProcessBuilder("ip", "netns", "list")
                .redirectErrorStream(true)
                .start();
        boolean ok = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        Assumptions.assumeTrue(
                ok && "root".equals(System.getProperty("user.name")), "needs root and iproute2's ip netns");
    }

    private record Run(int code, String out) {}

    private Run script(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of("bash", Path.of("..", "deploy", "netns-cluster.sh").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("BITINA_CP", System.getProperty("java.class.path"));
        pb.environment().put("BITINA_NETNS", "bitt");
        pb.environment().put("BITINA_NET", "10.78.0");
        pb.environment().put("BITINA_LOG_DIR", dir.toString());
        pb.environment().put("BITINA_MEMBER_HEAP", "1g");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the script ended");
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static JsonNode read(Path report) throws Exception {
        return new ObjectMapper().readTree(report.toFile());
    }

    @Test
    void fig1RunsOverThreeNamespacesAndOneCutOffMemberEndsTheRunSayingSo() throws Exception {
        Path report = dir.resolve("ns.json");
        Run ok = script("run", CliTest.fig1AcrossJvms(dir).toString(), "3", "--quiet", "--report", report.toString());
        assertEquals(0, ok.code(), ok.out());
        Set<String> members = new TreeSet<>();
        read(report).get("placement").forEach(m -> members.add(m.asText()));
        assertEquals(
                Set.of(
                        "pekko://bitina@10.78.0.10:25520",
                        "pekko://bitina@10.78.0.11:25520",
                        "pekko://bitina@10.78.0.12:25520"),
                members,
                "each member on its own interface");

        Path conf = dir.resolve("cut.conf");
        Files.writeString(conf, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{
                  name = k4, kind = allreduce, members = all, tree { mode = auto, root = core-1 }
                  data { elements = 1048576, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 500ms
                }]
                """);
        Path cutReport = dir.resolve("cut.json");
        Run cut = script("run", conf.toString(), "3", "--cut-at", "4:2", "--quiet", "--report", cutReport.toString());
        assertEquals(1, cut.code(), cut.out());
        JsonNode job = read(cutReport).get("jobs").get(0);
        assertEquals("failed", job.get("status").asText());
        assertTrue(job.get("note").asText().contains("10.78.0.12:25520 lost with"), job.toString());
        Run left = script("clean");
        assertEquals(0, left.code(), left.out());
        Process list = new ProcessBuilder("ip", "netns", "list").start();
        assertTrue(
                !new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("bitt-m"),
                "namespaces removed");
    }
}
