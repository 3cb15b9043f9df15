package org.bitina.node;

import static org.bitina.node.CliTest.cli;
import static org.bitina.node.CliTest.fig1AcrossJvms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bitina.node.CliTest.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code run --jvms 3} with real member JVMs (E6, E4): run by failsafe in {@code mvn verify}, not
 * by {@code mvn test}, since each starts JVMs and takes tens of seconds.
 */
class MultiJvmRunIT {
    @TempDir
    Path dir;

    @Test
    void runOnThreeRealJvmsPutsDevicesOnEveryMemberAndStopsThemAll() throws IOException {
        // E6: the launcher starts two member JVMs beside this one; every job verifies; the members stop after the run
        Path runDir = dir.resolve("run");
        Path report = dir.resolve("report.json");
        Result r = cli(
                "run",
                fig1AcrossJvms(dir).toString(),
                "--jvms",
                "3",
                "--quiet",
                "--run-dir",
                runDir.toString(),
                "--report",
                report.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        var json = new ObjectMapper().readTree(report.toFile());
        Set<String> members = new TreeSet<>();
        json.get("placement").forEach(m -> members.add(m.asText()));
        assertEquals(3, members.size(), "devices on three members: " + members);
        for (var j : json.get("jobs")) {
            assertTrue(j.get("verified").asBoolean() && j.get("asExpected").asBoolean(), j.toString());
        }
        String own = Files.readString(runDir.resolve("member-0.log"));
        assertTrue(own.contains("coordinator and seed"), "this JVM's log is there too");
        // a clean run shuts down clean: no member waits out a shutdown phase (the singleton's hand-over) and says so
        assertTrue(!shutdownWarnings(own) && !shutdownWarnings(r.err()), own + r.err());
        for (int i = 1; i <= 2; i++) {
            String log = Files.readString(runDir.resolve("member-" + i + ".log"));
            assertTrue(
                    log.contains("joining through") && log.contains("stopped"),
                    "member " + i + " joined and stopped: " + log);
            assertTrue(!shutdownWarnings(log), "member " + i + " stopped without a WARN: " + log);
        }
    }

    @Test
    void aMemberJvmKilledMidRunIsDownedAndTheRunEndsSayingSo() throws IOException {
        // E4: member-loss halts member 1's JVM as kill -9 would; the split brain resolver downs it
        Path conf = dir.resolve("loss.conf");
        Files.writeString(conf, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{
                  name = k4, kind = allreduce, members = all, tree { mode = auto, root = core-1 }
                  data { elements = 1048576, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 500ms
                }]
                faults = [ { at = 20us, kind = member-loss, member = 1 } ]
                """);
        Path report = dir.resolve("loss.json");
        long start = System.nanoTime();
        Result r = cli(
                "run",
                conf.toString(),
                "--jvms",
                "3",
                "--quiet",
                "--run-dir",
                dir.resolve("run").toString(),
                "--report",
                report.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(System.nanoTime() - start < 120_000_000_000L);
        var job = new ObjectMapper().readTree(report.toFile()).get("jobs").get(0);
        assertEquals("failed", job.get("status").asText());
        assertTrue(job.get("note").asText().contains("lost with"), job.toString());
        assertTrue(r.out().contains("lost with"), r.out());
    }

    @Test
    void aMemberKilledFromOutsideWithSigkillIsDownedAndTheRunEnds() throws Exception {
        // E4 with a real kill -9: the test kills one of the launcher's member JVMs once the run is under way
        Path conf = dir.resolve("kill.conf");
        Files.writeString(conf, """
                topology { generator { kind = fat-tree, k = 4 } }
                jobs = [{
                  name = k4, kind = allreduce, members = all, tree { mode = auto, root = core-1 }
                  data { elements = 4194304, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
                  completion-timeout = 500ms
                }]
                """);
        Path report = dir.resolve("kill.json");
        // this JVM's log (member-0.log) says when the coordinator starts a phase: bitina logs at INFO for this test
        ch.qos.logback.classic.Logger bitina = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.bitina");
        ch.qos.logback.classic.Level level = bitina.getLevel();
        bitina.setLevel(ch.qos.logback.classic.Level.INFO);
        Result r;
        try {
            CompletableFuture<Result> run = CompletableFuture.supplyAsync(() -> cli(
                    "run",
                    conf.toString(),
                    "--jvms",
                    "3",
                    "--quiet",
                    "--run-dir",
                    dir.resolve("run").toString(),
                    "--report",
                    report.toString()));
            // member 2 runs devices, and the coordinator has them all (its first phase started): the run is under way
            Path log = dir.resolve("run/member-2.log");
            assertTrue(awaitLine(log, "devices of run", Duration.ofSeconds(60)), "member 2 runs its devices");
            assertTrue(
                    awaitLine(dir.resolve("run/member-0.log"), "phase 1/", Duration.ofSeconds(60)),
                    "the first phase started");
            ProcessHandle victim =
                    memberWritingTo(log).orElseThrow(() -> new AssertionError("no member JVM writes " + log));
            assertTrue(victim.destroyForcibly(), "SIGKILL sent");
            r = run.get(3, TimeUnit.MINUTES);
        } finally {
            bitina.setLevel(level);
        }
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(Files.exists(report), "the run reported: " + r.out() + r.err());
        var job = new ObjectMapper().readTree(report.toFile()).get("jobs").get(0);
        assertEquals("failed", job.get("status").asText());
        assertTrue(job.get("note").asText().contains("lost with"), job.toString());
    }

    /** Waits until {@code log} has {@code text} in it; false if it has not within {@code within}. */
    private static boolean awaitLine(Path log, String text, Duration within) throws IOException, InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            // bytes, not readString: a line half written may end in half a character
            if (Files.exists(log) && new String(Files.readAllBytes(log), StandardCharsets.UTF_8).contains(text)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** The member JVM this JVM launched whose output goes to {@code log}: the one whose stdout (Linux /proc) is that file. */
    private static Optional<ProcessHandle> memberWritingTo(Path log) throws IOException {
        Path file = log.toRealPath();
        return ProcessHandle.current()
                .children()
                .filter(p -> {
                    try {
                        return Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "fd", "1"))
                                .equals(file);
                    } catch (IOException | UnsupportedOperationException e) {
                        return false;
                    }
                })
                .findFirst();
    }

    /**
     * Whether a log has a WARN other than the failure detector's "heartbeat interval is growing too
     * large": that one says the machine starved a JVM of CPU for a moment (two cores, several JVMs),
     * not that a member waited out a shutdown phase.
     */
    private static boolean shutdownWarnings(String log) {
        return log.lines()
                .anyMatch(l -> l.contains(" WARN ") && !l.contains("heartbeat interval is growing too large"));
    }
}
