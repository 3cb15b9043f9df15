package org.bitina.security;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF-SHA256 (RFC 5869) over the JDK's HMAC: the S2 job keys and the S6 keys derive from the
 * run's secret with it. The JDK has HMAC but no HKDF; Bouncy Castle's was used before, and its
 * signed jar cost every run a signature check on first use (about a tenth of a small run's
 * process time). The output is the RFC's, byte for byte (its test vectors in HkdfTest).
 */
final class Hkdf {
    private static final String HMAC = "HmacSHA256";
    private static final int HASH_BYTES = 32;

    private Hkdf() {}

    /** {@code bytes} of output keying material from {@code ikm} and {@code info}; an empty or null salt is the RFC's default (zeros). */
    static byte[] sha256(byte[] salt, byte[] ikm, byte[] info, int bytes) {
        if (bytes < 0 || bytes > 255 * HASH_BYTES) {
            throw new IllegalArgumentException("HKDF-SHA256 gives 0 to " + 255 * HASH_BYTES + " bytes, asked " + bytes);
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            // extract: PRK = HMAC(salt, IKM); HMAC pads a short key with zeros, so no salt is HashLen zeros
            mac.init(new SecretKeySpec(salt == null || salt.length == 0 ? new byte[HASH_BYTES] : salt, HMAC));
            byte[] prk = mac.doFinal(ikm);
            // expand: T(i) = HMAC(PRK, T(i-1) | info | i)
            mac.init(new SecretKeySpec(prk, HMAC));
            byte[] out = new byte[bytes];
            byte[] t = new byte[0];
            for (int i = 1, at = 0; at < bytes; i++) {
                mac.update(t);
                mac.update(info);
                mac.update((byte) i);
                t = mac.doFinal();
                int n = Math.min(t.length, bytes - at);
                System.arraycopy(t, 0, out, at, n);
                at += n;
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }
}
