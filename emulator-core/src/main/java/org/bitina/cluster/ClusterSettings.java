package org.bitina.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The Pekko settings of a bitina member (E2): a cluster over Artery TCP (TLS with the run's
 * credentials when members come from other JVMs, {@link #tls}), the split brain
 * resolver for members that are lost (E4), quick gossip (the clusters are small and the
 * runs short). One JVM alone runs on the local provider instead ({@link #alone}).
 */
public final class ClusterSettings {
    private static final String BASE = """
            pekko.actor.provider = cluster
            pekko.remote.artery.transport = tcp
            pekko.remote.artery.canonical.hostname = "127.0.0.1"
            pekko.remote.artery.canonical.port = 0
            pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
            # nobody reads the cluster's MBeans or Pekko's flight-recorder events; starting them (the JMX
            # server, the JFR classes) cost the paper's fig1 run about 6 % of its process wall time
            pekko.cluster.jmx.enabled = off
            pekko.java-flight-recorder.enabled = off
            pekko.cluster.log-info = off
            pekko.cluster.gossip-interval = 200ms
            pekko.cluster.leader-actions-interval = 100ms
            pekko.cluster.typed.receptionist.distributed-data.gossip-interval = 200ms
            pekko.cluster.downing-provider-class = "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"
            pekko.cluster.split-brain-resolver.active-strategy = keep-majority
            pekko.cluster.split-brain-resolver.stable-after = 5s
            # the coordinator singleton is defined on its member only: leaving, nobody takes it over
            pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 2s
            """;

    private ClusterSettings() {}

    /** A member on {@code host:port} (port 0: any) that joins through {@code seeds} ("host:port"; none: it founds a cluster of one). */
    public static Config member(String host, int port, List<String> seeds) {
        StringBuilder s = new StringBuilder("pekko.remote.artery.canonical.hostname = \"" + host + "\"\n")
                .append("pekko.remote.artery.canonical.port = ")
                .append(port)
                .append('\n')
                .append("pekko.cluster.seed-nodes = [");
        for (int i = 0; i < seeds.size(); i++) {
            s.append(i > 0 ? ", " : "")
                    .append("\"pekko://")
                    .append(SYSTEM)
                    .append('@')
                    .append(seeds.get(i))
                    .append('"');
        }
        s.append("]\n");
        return ConfigFactory.parseString(s.toString()).withFallback(defaults());
    }

    /**
     * The password of a credentials file. PKCS12 wants one; it is no secret: the file's
     * permissions (0600) keep the key, as they would a PEM file's.
     */
    public static final String CREDENTIALS_PASSWORD = "bitina";

    /**
     * Artery over TLS with the run's credentials ({@code p12}: one PKCS12 file holding the
     * run's key and self-signed certificate). The same file is the key store and the only
     * trust store, and both sides of every connection must show that certificate (mutual
     * authentication), so a JVM without the file cannot finish the handshake. Host names are
     * not verified: members are reached by address, and the one trusted certificate is the run's.
     */
    public static Config tls(Path p12) {
        String path = ConfigUtil.quoteString(p12.toAbsolutePath().toString());
        String pw = ConfigUtil.quoteString(CREDENTIALS_PASSWORD);
        return ConfigFactory.parseString("pekko.remote.artery.transport = tls-tcp\n"
                + "pekko.remote.artery.ssl.ssl-engine-provider = org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider\n"
                + "pekko.remote.artery.ssl.config-ssl-engine {\n"
                + "  key-store = " + path + "\n  trust-store = " + path + "\n"
                + "  key-store-password = " + pw + "\n  key-password = " + pw + "\n  trust-store-password = " + pw
                + "\n"
                + "  require-mutual-authentication = on\n  hostname-verification = off\n}\n");
    }

    /** The seeds a member was started with ({@link #member}): its run's coordinator is one of them. */
    public static Set<Address> seeds(ActorSystem<?> system) {
        Set<Address> out = new HashSet<>();
        for (String seed : system.settings().config().getStringList("pekko.cluster.seed-nodes")) {
            out.add(AddressFromURIString.parse(seed));
        }
        return Set.copyOf(out);
    }

    /** Every member's ActorSystem has this name: Pekko clusters only join systems of one name. */
    public static final String SYSTEM = "bitina";

    public static Config defaults() {
        return ConfigFactory.parseString(BASE);
    }

    /**
     * A member alone ({@code --jvms 1}): a member's settings {@code full} (the caller's over
     * {@link #defaults}, application.conf and the libraries' references) on the local provider.
     * A cluster of one gained nothing from Artery, the self-join, the receptionist's distributed
     * data or the cluster's shutdown phases, and starting them cost a small run about a sixth of
     * its process time (docs/benchmarks.md); the actors, messages and
     * reports are the same (the receptionist is the local one). Pekko builds every configured
     * serializer when a system starts, and the libraries' (Jackson's, an ObjectMapper each with
     * the Scala module; remoting's, the cluster's, distributed data's, the typed ones) cost some
     * 800 classes for messages that never leave this JVM: only Pekko's own basic serializers and
     * bitina's are built, the others stand in {@link NotBuiltSerializer} and their bindings are
     * {@code none}, unless {@code serialize-messages} is on (tests), which needs them.
     */
    public static Config alone(Config full) {
        Config out = full.withValue("pekko.actor.provider", ConfigValueFactory.fromAnyRef("local"));
        if (full.getBoolean("pekko.actor.serialize-messages")) {
            return out;
        }
        Set<String> notBuilt = new HashSet<>();
        for (Map.Entry<String, ConfigValue> e :
                full.getConfig("pekko.actor.serializers").root().entrySet()) {
            String binding = e.getKey();
            String serializer = String.valueOf(e.getValue().unwrapped());
            if (builtAlone(serializer)
                    || NotBuiltSerializer.identifier(full, binding, serializer).isEmpty()) {
                continue; // a serializer whose identifier is in its code, not in the settings, is kept as it is
            }
            notBuilt.add(binding);
            out = out.withValue(
                            ConfigUtil.joinPath("pekko", "actor", "serializers", binding),
                            ConfigValueFactory.fromAnyRef(NotBuiltSerializer.class.getName()))
                    .withValue(NotBuiltSerializer.replacedPath(binding), ConfigValueFactory.fromAnyRef(serializer));
        }
        for (Map.Entry<String, ConfigValue> e :
                full.getConfig("pekko.actor.serialization-bindings").root().entrySet()) {
            if (notBuilt.contains(String.valueOf(e.getValue().unwrapped()))) {
                // "none", not removed: the libraries' references are laid under these settings again when
                // the system starts, and a binding left to a stand-in makes Pekko warn about it at start
                out = out.withValue(
                        ConfigUtil.joinPath("pekko", "actor", "serialization-bindings", e.getKey()),
                        ConfigValueFactory.fromAnyRef("none"));
            }
        }
        return out;
    }

    /** Built for a member alone too: Pekko's own basic serializers (Java, bytes, primitives) and bitina's frames. */
    private static boolean builtAlone(String serializer) {
        String core = "org.apache.pekko.serialization.";
        return serializer.startsWith("org.bitina.")
                || (serializer.startsWith(core) && serializer.indexOf('.', core.length()) < 0);
    }

    /** A run alone: one member and no seeds to join (settings {@code pekko}, fallbacks resolved). */
    public static boolean runsAlone(int members, Config pekko) {
        return members == 1 && pekko.getStringList("pekko.cluster.seed-nodes").isEmpty();
    }

    /** The system runs on the cluster provider (else the local one: no cluster to join or watch). */
    public static boolean clustered(ActorSystem<?> system) {
        return system.settings().classicSettings().ProviderClass().startsWith("org.apache.pekko.cluster.");
    }
}
