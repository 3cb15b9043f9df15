package org.bitina.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import org.bitina.cluster.ClusterSettings;
import picocli.CommandLine.Option;

/**
 * How a member that others can reach is let into the cluster: TLS with the run's credentials
 * ({@code --credentials FILE}, else {@code $BITINA_CREDENTIALS}), or, only when asked for,
 * plain TCP ({@code --insecure}). A picocli mixin of {@code run} and {@code node}.
 */
final class ClusterAccess {
    static final String ENV = "BITINA_CREDENTIALS";

    @Option(
            names = "--credentials",
            paramLabel = "FILE",
            description = "the run's cluster credentials, made by `bitina credentials FILE` " + "(default: $" + ENV
                    + "); members without them cannot join")
    Path credentials;

    @Option(
            names = "--insecure",
            description = "plain TCP between members: anyone who reaches the port can join and is given devices")
    boolean insecure;

    /** The credentials file named by the option, else by the environment; null when neither. */
    Path file() {
        if (credentials != null) {
            return credentials;
        }
        String env = System.getenv(ENV);
        return insecure || env == null || env.isBlank() ? null : Path.of(env);
    }

    /**
     * The Pekko settings for the cluster's transport, or null when there is none to use (the
     * reason is printed): no credentials and no {@code --insecure}, both, or a bad file.
     * {@code fallbackOk}: a missing file is not an error (the caller makes credentials).
     */
    Config transport(String who, boolean fallbackOk) {
        if (credentials != null && insecure) {
            System.err.println(who + ": --credentials and --insecure exclude each other");
            return null;
        }
        if (insecure) {
            return ConfigFactory.empty();
        }
        Path f = file();
        if (f == null) {
            if (!fallbackOk) {
                System.err.println(
                        who + ": the cluster needs the run's credentials: give --credentials FILE or set " + ENV
                                + " (make them once with `bitina credentials FILE` and copy the file to every member), "
                                + "or --insecure for plain TCP that anyone who reaches the port can join");
            }
            return null;
        }
        String problem = RunCredentials.problem(f);
        if (problem != null) {
            System.err.println(who + ": " + problem);
            return null;
        }
        if (RunCredentials.readableByOthers(f)) {
            System.err.println(who + ": warning: " + f + " can be read by other users; chmod 600 it");
        }
        return ClusterSettings.tls(f);
    }
}
