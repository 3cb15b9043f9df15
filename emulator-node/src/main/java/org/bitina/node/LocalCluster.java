package org.bitina.node;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code run --jvms N}: N-1 member JVMs on loopback beside this one, which is the seed and
 * runs the coordinator. Their logs land in the run folder. They stop when this JVM closes
 * their standard input: after the run, on failure, and on Ctrl-C (a shutdown hook).
 */
final class LocalCluster implements AutoCloseable {
    private final List<Process> members = new ArrayList<>();
    private final Thread hook;
    final int seedPort;
    final Path runDir;

    LocalCluster(int others, Path runDir, String memberHeap) throws IOException {
        this.runDir = runDir;
        Files.createDirectories(runDir);
        try (ServerSocket s = new ServerSocket(0)) {
            seedPort = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("java.class.path");
        hook = new Thread(this::stop, "bitina-members-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        for (int i = 1; i <= others; i++) {
            File log = runDir.resolve("member-" + i + ".log").toFile();
            // INFO for bitina's own loggers: a member's log says which devices it runs
            ProcessBuilder pb = new ProcessBuilder(java, "-Xmx" + memberHeap, "-XX:+UseParallelGC", "-DBITINA_LOG_LEVEL=INFO", "-cp", cp,
                    Main.class.getName(), "node",
                    "--host", "127.0.0.1", "--port", "0", "--seed", "127.0.0.1:" + seedPort, "--stop-on-eof")
                    .redirectErrorStream(true).redirectOutput(log);
            members.add(pb.start());
        }
    }

    /** Closes the members' input and waits for them; whoever does not stop in time is killed. */
    void stop() {
        for (Process p : members) {
            try {
                p.getOutputStream().close();
            } catch (IOException ignored) {
                // already gone
            }
        }
        for (Process p : members) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // the JVM is shutting down: the hook runs anyway
        }
    }
}
