package org.bitina.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Set;
import org.bitina.cluster.ClusterSettings;

/**
 * A run's cluster credentials: one EC P-256 key and a self-signed certificate for it, in one
 * PKCS12 file that is both every member's key store and its only trust store (Pekko's
 * ConfigSSLEngineProvider reads it twice). Every member holds the same key, so a member proves
 * only that it holds the file; whoever has it is in the cluster, whoever has not cannot finish
 * the TLS handshake. The file is made mode 0600: its password is not a secret (PKCS12 wants
 * one; it is {@link ClusterSettings#CREDENTIALS_PASSWORD}), the file's permissions are.
 */
final class RunCredentials {
    static final String ALIAS = "bitina-run";

    private RunCredentials() {}

    /** Writes new credentials valid for {@code validity} from now; refuses to replace a file. */
    static void create(Path file, Duration validity) throws IOException {
        if (Files.exists(file)) {
            throw new FileAlreadyExistsException(file.toString());
        }
        KeyStore ks;
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair kp = g.generateKeyPair();
            byte[] id = new byte[8];
            new SecureRandom().nextBytes(id);
            Instant now = Instant.now();
            // a minute back: members' clocks that differ a little still accept it
            X509Certificate cert = SelfSignedCertificate.of(
                    kp,
                    "bitina run " + HexFormat.of().formatHex(id),
                    new BigInteger(1, id),
                    now.minusSeconds(60),
                    now.plus(validity));
            ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            char[] pw = ClusterSettings.CREDENTIALS_PASSWORD.toCharArray();
            ks.setKeyEntry(ALIAS, kp.getPrivate(), pw, new X509Certificate[] {cert});
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make credentials: " + e.getMessage(), e);
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        // made 0600 before a byte of the key is in it, then moved into place whole
        Path tmp = Files.createTempFile(
                dir,
                ".credentials",
                ".tmp",
                PosixFilePermissions.asFileAttribute(
                        Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
        try (OutputStream out = Files.newOutputStream(tmp)) {
            ks.store(out, ClusterSettings.CREDENTIALS_PASSWORD.toCharArray());
        } catch (GeneralSecurityException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("cannot write credentials: " + e.getMessage(), e);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Why {@code file} cannot serve as credentials (missing, not ours, expired), or null when it can. */
    static String problem(Path file) {
        if (!Files.isReadable(file)) {
            return file + " cannot be read";
        }
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, ClusterSettings.CREDENTIALS_PASSWORD.toCharArray());
            if (!ks.isKeyEntry(ALIAS) || !(ks.getCertificate(ALIAS) instanceof X509Certificate cert)) {
                return file + " holds no bitina run key (make one with `bitina credentials FILE`)";
            }
            cert.checkValidity();
            return null;
        } catch (CertificateExpiredException e) {
            return file + ": the certificate has expired (" + e.getMessage() + "); make new credentials";
        } catch (IOException | GeneralSecurityException e) {
            return file + " is not bitina credentials (a PKCS12 file made by `bitina credentials FILE`): "
                    + e.getMessage();
        }
    }

    /** Whether group or others may read the file: the key is then not the run's alone. */
    static boolean readableByOthers(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            return p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
