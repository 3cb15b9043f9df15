package org.bitina.node;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run --jvms N}: N-1 member JVMs on loopback beside this one, which is the seed and
 * runs the coordinator. Their logs land in the run folder. They stop when this JVM closes
 * their standard input: after the run, on failure, and on Ctrl-C (a shutdown hook). They
 * talk over TLS with credentials made for this run alone (credentials.p12 in the run
 * folder, mode 0600, deleted when the members have stopped), or with the ones given, or, when
 * told --insecure, over plain TCP.
 */
final class LocalCluster implements AutoCloseable {
    private final List<Process> members = new ArrayList<>();
    private final Thread hook;
    final int seedPort;
    final Path runDir;
    /** The members' credentials; null: plain TCP. */
    final Path credentials;
    /** Made for this run, so deleted after it. */
    private final boolean ownCredentials;

    /** This JVM's own log also goes to the run folder, as member-0.log, beside the others'. */
    private final ch.qos.logback.core.FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> ownLog;

    /** @param given credentials to use instead of making new ones (null: make them, unless {@code insecure}) */
    LocalCluster(int others, Path runDir, String memberHeap, boolean insecure, Path given) throws IOException {
        this.runDir = runDir;
        Files.createDirectories(runDir);
        ownCredentials = !insecure && given == null;
        if (ownCredentials) {
            // a day: longer than any run, short enough that a copy left behind soon opens nothing
            credentials = runDir.resolve("credentials.p12");
            RunCredentials.create(credentials, Duration.ofDays(1));
        } else {
            credentials = insecure ? null : given.toAbsolutePath();
        }
        ownLog = ownLog(runDir.resolve("member-0.log"));
        try (ServerSocket s = new ServerSocket(0)) {
            seedPort = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("java.class.path");
        hook = new Thread(
                () -> {
                    stop();
                    forgetCredentials();
                },
                "bitina-members-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        for (int i = 1; i <= others; i++) {
            File log = runDir.resolve("member-" + i + ".log").toFile();
            // INFO for bitina's own loggers: a member's log says which devices it runs
            List<String> cmd = new ArrayList<>(List.of(
                    java,
                    "-Xmx" + memberHeap,
                    "-XX:+UseParallelGC",
                    "-DBITINA_LOG_LEVEL=INFO",
                    "-cp",
                    cp,
                    Main.class.getName(),
                    "node",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--seed",
                    "127.0.0.1:" + seedPort,
                    "--stop-on-eof"));
            cmd.addAll(credentials == null ? List.of("--insecure") : List.of("--credentials", credentials.toString()));
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log);
            members.add(pb.start());
        }
    }

    /**
     * How long the members together get to stop once their input is closed. A member normally stops in
     * a few seconds; over TLS, with the coordinator gone, its last shutdown phase has been seen to wait
     * out its whole 10 s timeout after a 2 s one: room for that, then whoever is left is killed.
     */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(45);

    /**
     * Closes the members' input and waits for them, all against one deadline; whoever does not stop
     * by it is killed, and the console says so. (With a wait of its own for each member, two members
     * that did not stop cost twice the timeout, as in a clean run seen taking 92 s to exit.)
     */
    void stop() {
        for (Process p : members) {
            try {
                p.getOutputStream().close();
            } catch (IOException ignored) {
                // already gone
            }
        }
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        for (int i = 0; i < members.size(); i++) {
            Process p = members.get(i);
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    System.err.println("bitina: member " + (i + 1) + " did not stop within " + STOP_TIMEOUT.toSeconds()
                            + " s of the run's end; killed (its log: " + runDir.resolve("member-" + (i + 1) + ".log")
                            + ")");
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Credentials made for this run open nothing once it is over. */
    private void forgetCredentials() {
        if (ownCredentials) {
            try {
                Files.deleteIfExists(credentials);
            } catch (IOException e) {
                System.err.println(
                        "bitina: could not delete this run's credentials " + credentials + ": " + e.getMessage());
            }
        }
    }

    private static ch.qos.logback.core.FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> ownLog(Path file) {
        if (!(LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext lc)) {
            return null;
        }
        ch.qos.logback.classic.encoder.PatternLayoutEncoder encoder =
                new ch.qos.logback.classic.encoder.PatternLayoutEncoder();
        encoder.setContext(lc);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n");
        encoder.start();
        ch.qos.logback.core.FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> out =
                new ch.qos.logback.core.FileAppender<>();
        out.setContext(lc);
        out.setName("run-folder");
        out.setFile(file.toString());
        out.setEncoder(encoder);
        out.start();
        lc.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(out);
        // the first line a reader of the folder needs, written to the file alone: a clean run prints no WARN on the
        // console
        ch.qos.logback.classic.Logger folder = lc.getLogger("org.bitina.run-folder");
        folder.setAdditive(false);
        folder.setLevel(ch.qos.logback.classic.Level.INFO);
        folder.addAppender(out);
        folder.info("this JVM is the coordinator and seed; the other members' logs are beside this one");
        folder.detachAppender(out);
        return out;
    }

    @Override
    public void close() {
        stop();
        forgetCredentials();
        if (ownLog != null) {
            ((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory())
                    .getLogger(Logger.ROOT_LOGGER_NAME)
                    .detachAppender(ownLog);
            ownLog.stop();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // the JVM is shutting down: the hook runs anyway
        }
    }
}
