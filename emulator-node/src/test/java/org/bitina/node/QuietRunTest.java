package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A run that ends as the scenario expects prints no WARN, no ERROR and no stack trace (issue 42
 * item 1: every run printed 59 WARN lines about serializers a member alone does not build). The
 * shipped files that run in a few seconds; {@link QuietRunIT} runs the others in {@code mvn verify}.
 */
class QuietRunTest {
    /** The shipped files of a few seconds each; every other shipped file is in {@link QuietRunIT}. */
    static final List<String> QUICK = List.of(
            "admission-fallback.conf",
            "aggregator-contention.conf",
            "elastic-allreduce.conf",
            "elastic-bier-inc.conf",
            "fat-tree-k4-all-gather.conf",
            "fat-tree-k4-allreduce.conf",
            "fat-tree-k4-bier-inc-link-failure.conf",
            "fat-tree-k4-bier-inc.conf",
            "fat-tree-k4-reduce-scatter.conf",
            "fat-tree-k4-switch-recover.conf",
            "fat-tree-k4-vat-repair.conf",
            "paper-fig1-allreduce.conf",
            "paper-fig2-moe.conf",
            "rfc8279-example.conf",
            "shrinking-miss-set.conf",
            "two-tenants.conf");

    static Stream<String> quick() {
        return QUICK.stream();
    }

    @ParameterizedTest
    @MethodSource("quick")
    void aSuccessfulRunIsQuiet(String file) {
        assertQuiet(Path.of("..", "topology-configs", file));
    }

    /** Runs {@code file} in this JVM and fails on exit status other than 0, or any WARN, ERROR or stack trace. */
    static CliTest.Result assertQuiet(Path file) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.setContext(context);
        events.start();
        root.addAppender(events);
        CliTest.Result r;
        try {
            r = CliTest.cli("run", file.toString());
        } finally {
            root.detachAppender(events);
        }
        assertEquals(0, r.code(), file + ":\n" + r.out() + r.err());
        String loud = events.list.stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(e -> e.getLevel() + " " + e.getLoggerName() + " - " + e.getFormattedMessage())
                .collect(Collectors.joining("\n"));
        assertTrue(loud.isEmpty(), file + " logged:\n" + loud);
        for (String line : (r.out() + r.err()).split("\n")) {
            assertFalse(
                    line.contains("WARN") || line.contains("ERROR") || line.matches("\\s+at [\\w.$]+\\(.*\\)"),
                    file + " printed: " + line);
        }
        return r;
    }

    /**
     * A fault planned after the phases it targets ended never happens: {@code validate} names it,
     * the run exits 0 (its jobs ran and verified) without a WARN, and its verdict says which fault
     * was not applied and when each phase ended in modelled time (issue 42 item 6).
     */
    @Test
    void aFaultPlannedAfterThePhasesIsNamedNotWarned(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("late-fault.conf");
        Files.writeString(
                file,
                "include file(\""
                        + Path.of("..", "topology-configs", "paper-fig1-allreduce.conf")
                                .toAbsolutePath()
                        + "\")\nfaults = [ { at = 5ms, kind = link-down, link = [s1, s5] } ]\n");
        CliTest.Result v = CliTest.cli("validate", file.toString());
        assertEquals(0, v.code(), v.err());
        assertTrue(v.err().contains("faults[0] (link-down at 5.00 ms) is planned after"), v.err());
        CliTest.Result r = assertQuiet(file);
        String verdict = r.out()
                .lines()
                .filter(l -> l.startsWith("faults not applied"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line on the faults not applied:\n" + r.out()));
        assertTrue(verdict.contains("link-down at 5 ms"), verdict);
        assertTrue(verdict.matches(".*fig1 ina at [0-9.]+ µs.*fig1 ring at .*fig1 ps at .*"), verdict);
    }

    /**
     * A reliable-multicast receiver straggling 5 s acknowledges a retransmission round to the switch
     * that installed its C-BM long after that round's entry there expired: the switch counts the
     * frame as a drop with its reason (it hosts no endpoints to hand it to), no WARN (issue 42 item 14).
     */
    @Test
    void aLateAckToASwitchIsACountedDropNotAWarning(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("late-ack.conf");
        Files.writeString(
                file,
                "include file(\""
                        + Path.of("..", "topology-configs", "defaults.conf").toAbsolutePath()
                        + "\")\n"
                        + "topology { generator { kind = fat-tree, k = 4 } }\n"
                        + "jobs = [{ name = ckpt, kind = reliable-multicast, tenant = 1, source = h1, receivers = all\n"
                        + "  data { bytes = 256KiB, packet = 4000, window = 16, seed = 21 }\n"
                        + "  ack { per = window, tree = composed }, max-rounds = 16, completion-timeout = 100ms }]\n"
                        + "faults = [{ at = 0us, kind = straggler, node = h5, delay = 5s }]\n");
        CliTest.Result r = assertQuiet(file);
        assertTrue(
                r.out()
                        .lines()
                        .anyMatch(l -> l.startsWith("drops: ")
                                && l.contains("addressed to this switch, which keeps no state for it")),
                r.out());
    }

    /** Every shipped scenario (topology-configs and its attacks), less {@code defaults.conf}. */
    static List<Path> shipped() throws IOException {
        Path dir = Path.of("..", "topology-configs");
        try (Stream<Path> files = Stream.concat(Files.list(dir), Files.list(dir.resolve("attacks")))) {
            return files.filter(p -> p.toString().endsWith(".conf") && !p.endsWith("defaults.conf"))
                    .sorted()
                    .toList();
        }
    }
}
