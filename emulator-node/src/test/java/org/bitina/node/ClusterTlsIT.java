package org.bitina.node;

import static org.bitina.node.CliTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitina.cluster.ClusterSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14.6 with real JVMs: a coordinator over TLS with credentials made by
 * {@code bitina credentials}, two rogue {@code bitina node} JVMs that try to join first (one
 * over plain TCP, one with a key of its own that trusts the run's certificate, so only the
 * coordinator's demand for the client's certificate stops it), then the real member. The
 * rogues never become members and give up; the run is placed on the coordinator and the real
 * member only, and verifies.
 */
class ClusterTlsIT {
    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process node(String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx512m",
                "-XX:+UseParallelGC",
                "-DBITINA_LOG_LEVEL=INFO",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "node"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
        started.add(p);
        return p;
    }

    private String log(String name) throws IOException {
        Path f = dir.resolve(name + ".log");
        return Files.exists(f) ? new String(Files.readAllBytes(f), StandardCharsets.UTF_8) : "";
    }

    private boolean await(String name, String text, Duration within) throws Exception {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            if (log(name).contains(text)) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** The address a node's log says it has. */
    private String address(String name) throws Exception {
        assertTrue(await(name, "joining through", Duration.ofSeconds(30)), name + " started: " + log(name));
        Matcher m = Pattern.compile("member (pekko://\\S+) joining").matcher(log(name));
        assertTrue(m.find(), log(name));
        return m.group(1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A key of the rogue's own, and the run's certificate among those it trusts (anyone can read it off the seed's handshake). */
    private Path rogueTrustingTheRun(Path run) throws Exception {
        Path rogue = dir.resolve("rogue.p12");
        assertEquals(0, cli("credentials", rogue.toString()).code());
        char[] pw = ClusterSettings.CREDENTIALS_PASSWORD.toCharArray();
        KeyStore mine = KeyStore.getInstance("PKCS12");
        KeyStore theirs = KeyStore.getInstance("PKCS12");
        try (InputStream a = Files.newInputStream(rogue);
                InputStream b = Files.newInputStream(run)) {
            mine.load(a, pw);
            theirs.load(b, pw);
        }
        mine.setCertificateEntry("the-run", theirs.getCertificate(RunCredentials.ALIAS));
        try (OutputStream out = Files.newOutputStream(rogue)) {
            mine.store(out, pw);
        }
        return rogue;
    }

    @Test
    void aNodeWithoutTheRunsCredentialsNeverJoinsAndTheRunEndsVerifiedWithoutIt() throws Exception {
        Path creds = dir.resolve("run.p12");
        CliTest.Result made = cli("credentials", creds.toString());
        assertEquals(0, made.code(), made.err());
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(creds)),
                "only its owner reads the key");

        int port = freePort();
        String seed = "127.0.0.1:" + port;
        Path report = dir.resolve("report.json");
        Path conf = CliTest.fig1AcrossJvms(dir);
        CompletableFuture<CliTest.Result> run = CompletableFuture.supplyAsync(() -> cli(
                "run",
                conf.toString(),
                "--members",
                "2",
                "--host",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--credentials",
                creds.toString(),
                "--quiet",
                "--report",
                report.toString()));
        long until = System.nanoTime() + 60_000_000_000L;
        while (!listening(port)) {
            assertTrue(System.nanoTime() < until, "the coordinator listens on " + seed);
            Thread.sleep(100);
        }

        // the rogues come first: had either been let in, the coordinator (waiting for 2 members) would place devices on
        // it
        Process plain = node("plain", "--seed", seed, "--insecure", "--join-timeout", "15");
        Process other = node(
                "other-key",
                "--seed",
                seed,
                "--credentials",
                rogueTrustingTheRun(creds).toString(),
                "--join-timeout",
                "15");
        Set<String> rogues = Set.of(address("plain"), address("other-key"));
        for (String r : List.of("plain", "other-key")) {
            assertTrue(
                    await(r, "Couldn't join seed nodes", Duration.ofSeconds(30)),
                    "the seed should have refused " + r + ": " + log(r));
        }
        // the coordinator refused the other key's certificate: it trusts the run's, so only the demand for its own
        // stops it
        // (it could not join without that either, the seed's connection back to it fails; but it could send one-way
        // messages)
        assertTrue(await("other-key", "SSLHandshakeException", Duration.ofSeconds(30)), log("other-key"));

        Process member = node("member", "--seed", seed, "--credentials", creds.toString(), "--stop-on-eof");
        String real = address("member");
        CliTest.Result r = run.get(3, TimeUnit.MINUTES);
        member.getOutputStream().close();
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        Set<String> placed = new TreeSet<>();
        json.get("placement").forEach(m -> placed.add(m.asText()));
        assertEquals(
                Set.of("pekko://bitina@" + seed, real),
                placed,
                "devices on the coordinator and the real member only; rogues " + rogues);
        for (JsonNode j : json.get("jobs")) {
            assertTrue(j.get("verified").asBoolean() && j.get("asExpected").asBoolean(), j.toString());
        }

        for (Process p : List.of(plain, other)) {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a rogue gives up");
            assertEquals(1, p.exitValue());
        }
        for (String name : List.of("plain", "other-key")) {
            String log = log(name);
            assertTrue(log.contains("gave up: not let into the cluster"), log);
            assertFalse(log.contains("devices of run"), name + " never ran devices: " + log);
        }
        assertTrue(member.waitFor(30, TimeUnit.SECONDS) && member.exitValue() == 0, log("member"));
    }

    @Test
    void withoutCredentialsANodeOrAnOpenRunRefusesToStartUnlessToldInsecure() throws Exception {
        Assumptions.assumeTrue(System.getenv(ClusterAccess.ENV) == null, "BITINA_CREDENTIALS is set here");
        CliTest.Result node = cli("node", "--seed", "127.0.0.1:9");
        assertEquals(2, node.code());
        assertTrue(
                node.err().contains("needs the run's credentials") && node.err().contains("--insecure"), node.err());
        CliTest.Result run = cli("run", CliTest.fig1AcrossJvms(dir).toString(), "--members", "2", "--quiet");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("needs the run's credentials"), run.err());
        Path creds = dir.resolve("c.p12");
        assertEquals(0, cli("credentials", creds.toString()).code());
        CliTest.Result both = cli("node", "--seed", "127.0.0.1:9", "--credentials", creds.toString(), "--insecure");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("exclude each other"), both.err());
        CliTest.Result again = cli("credentials", creds.toString());
        assertEquals(2, again.code(), "an existing file is not replaced");
        Path junk = dir.resolve("junk.p12");
        Files.writeString(junk, "not a key store");
        CliTest.Result bad = cli("node", "--seed", "127.0.0.1:9", "--credentials", junk.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("is not bitina credentials"), bad.err());
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
