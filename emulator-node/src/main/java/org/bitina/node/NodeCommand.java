package org.bitina.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.bitina.cluster.ClusterSettings;
import org.bitina.cluster.MemberAgent;
import org.bitina.cluster.SeedWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bitina node}: one cluster member by hand (E8), for runs over several machines: it
 * joins through the seed nodes and runs the devices the coordinator places on it, until it
 * is stopped (Ctrl-C), leaves the cluster, or is downed; with {@code --exit-with-seed} also
 * when its seed (the run's coordinator) is removed from the cluster, as a Kubernetes Job's
 * member pods must. It joins over TLS with the run's credentials, or over plain TCP only when
 * told {@code --insecure}. It prints one line when it is up in the cluster, and writes
 * {@code --ready-file} then (a container's readiness signal).
 */
@Command(name = "node", mixinStandardHelpOptions = true, description = "Runs one cluster member that hosts devices.")
final class NodeCommand implements Callable<Integer> {
    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "address the member listens on and is reached at (default ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "0", description = "Artery TCP port (default: any free one)")
    int port;

    @Option(
            names = "--seed",
            paramLabel = "HOST:PORT",
            required = true,
            description = "a seed node to join through (repeatable)")
    List<String> seeds;

    @Option(names = "--stop-on-eof", description = "stop when standard input closes (the local launcher's children)")
    boolean stopOnEof;

    @Option(
            names = "--join-timeout",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "give up when not in the cluster after this long (default ${DEFAULT-VALUE})")
    int joinTimeout;

    @Option(
            names = "--exit-with-seed",
            description = "stop when the seed (the run's coordinator) is removed from the cluster: "
                    + "exit 0 when it left, 1 when it was lost (a member serves one run)")
    boolean exitWithSeed;

    @Option(
            names = "--ready-file",
            paramLabel = "FILE",
            description = "write this file when the member is up in the cluster, "
                    + "delete it when it stops (a readiness signal)")
    Path readyFile;

    @Mixin
    ClusterAccess access;

    @Override
    public Integer call() throws Exception {
        for (String s : seeds) {
            if (!s.matches("[^:\\s]+:\\d{1,5}")) {
                System.err.println("bitina node: seed '" + s + "' is not HOST:PORT");
                return ExitCodes.USAGE;
            }
        }
        if (joinTimeout < 1) {
            System.err.println("bitina node: --join-timeout must be at least 1 second");
            return ExitCodes.USAGE;
        }
        Config transport = access.transport("bitina node", false);
        if (transport == null) {
            return ExitCodes.USAGE;
        }
        ActorSystem<MemberAgent.Command> system = ActorSystem.create(
                MemberAgent.create(),
                ClusterSettings.SYSTEM,
                transport
                        .withFallback(ClusterSettings.member(host, port, seeds))
                        .withFallback(ConfigFactory.parseString(
                                "pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes = " + joinTimeout + "s"))
                        .withFallback(ConfigFactory.load()));
        AtomicBoolean joined = new AtomicBoolean();
        // the seed's removal: null while it is in the cluster, then whether it left on its own
        AtomicReference<Boolean> seedLeft = new AtomicReference<>();
        Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up(system, joined));
        if (exitWithSeed) {
            system.systemActorOf(
                    SeedWatch.create(ClusterSettings.seeds(system), left -> {
                        seedLeft.set(left);
                        system.terminate();
                    }),
                    "seed-watch",
                    Props.empty());
        }
        System.out.println("bitina node: member " + system.address() + " joining through " + seeds
                + (transport.isEmpty() ? " over plain TCP (--insecure)" : " over TLS"));
        System.out.flush();
        if (stopOnEof) {
            Thread watcher = new Thread(
                    () -> {
                        try {
                            InputStream in = System.in;
                            while (in.read() >= 0) {
                                // the launcher writes nothing: wait for the end of input
                            }
                        } catch (IOException ignored) {
                            // a broken pipe is an end of input too
                        }
                        system.terminate();
                    },
                    "stop-on-eof");
            watcher.setDaemon(true);
            watcher.start();
        }
        system.getWhenTerminated().toCompletableFuture().get();
        if (readyFile != null) {
            Files.deleteIfExists(readyFile);
        }
        if (!joined.get()) {
            // the seed refused it (other credentials, or TLS against plain TCP) or was not there
            System.out.println("bitina node: member " + system.address() + " gave up: not let into the cluster through "
                    + seeds + " within " + joinTimeout + " s (are the seed and this member on the same credentials?)");
            return ExitCodes.JOB_FAILED;
        }
        if (Boolean.FALSE.equals(seedLeft.get())) {
            System.out.println(
                    "bitina node: member " + system.address() + " stopped: its seed (the run's coordinator) was lost");
            return ExitCodes.JOB_FAILED;
        }
        System.out.println("bitina node: member " + system.address() + " stopped"
                + (seedLeft.get() != null ? ": its seed (the run's coordinator) left the cluster" : ""));
        return ExitCodes.OK;
    }

    /** The member is up: say so (scripts wait for this line) and write the ready file. */
    private void up(ActorSystem<?> system, AtomicBoolean joined) {
        joined.set(true);
        System.out.println("bitina node: member " + system.address() + " up");
        System.out.flush();
        if (readyFile != null) {
            try {
                Files.writeString(readyFile, system.address() + "\n");
            } catch (IOException e) {
                System.err.println("bitina node: cannot write the ready file " + readyFile + ": " + e.getMessage());
            }
        }
    }
}
