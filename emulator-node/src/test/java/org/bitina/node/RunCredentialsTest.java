package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.bitina.cluster.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's credentials, made with the JDK alone: a certificate members accept, and a TLS handshake with it both ways. */
class RunCredentialsTest {
    @TempDir
    Path dir;

    @Test
    void certificateIsSelfSignedForTheKeyAndValidForItsPeriod() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair kp = g.generateKeyPair();
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        // 2051: past UTCTime's range, written as GeneralizedTime
        Instant to = Instant.parse("2051-06-30T12:00:00Z");
        X509Certificate c = SelfSignedCertificate.of(kp, "bitina run ab", BigInteger.valueOf(0xfedcba), from, to);
        assertEquals(3, c.getVersion());
        assertEquals("CN=bitina run ab", c.getSubjectX500Principal().getName());
        assertEquals(c.getSubjectX500Principal(), c.getIssuerX500Principal());
        assertEquals(BigInteger.valueOf(0xfedcba), c.getSerialNumber());
        assertEquals(from, c.getNotBefore().toInstant());
        assertEquals(to, c.getNotAfter().toInstant());
        assertEquals("SHA256withECDSA", c.getSigAlgName());
        assertEquals(kp.getPublic(), c.getPublicKey());
        c.verify(kp.getPublic());
    }

    @Test
    void membersWithTheFileShakeHandsBothWays() throws Exception {
        Path file = dir.resolve("run.p12");
        RunCredentials.create(file, Duration.ofDays(1));
        assertNull(RunCredentials.problem(file));
        assertFalse(RunCredentials.readableByOthers(file));
        SSLContext tls = context(file);
        try (SSLServerSocket server = (SSLServerSocket)
                tls.getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setNeedClientAuth(true); // as Pekko's require-mutual-authentication
            CompletableFuture<Integer> served = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket s = (SSLSocket) server.accept()) {
                    return s.getInputStream().read();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (SSLSocket client = (SSLSocket)
                    tls.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                client.startHandshake();
                client.getOutputStream().write(42);
                client.getOutputStream().flush();
                assertEquals(42, served.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void refusesToReplaceAFile() throws Exception {
        Path file = dir.resolve("taken.p12");
        Files.writeString(file, "x");
        assertThrows(FileAlreadyExistsException.class, () -> RunCredentials.create(file, Duration.ofDays(1)));
    }

    private static SSLContext context(Path file) throws Exception {
        char[] pw = ClusterSettings.CREDENTIALS_PASSWORD.toCharArray();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, pw);
        }
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(ks, pw);
        TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tm.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(km.getKeyManagers(), tm.getTrustManagers(), null);
        return c;
    }
}
