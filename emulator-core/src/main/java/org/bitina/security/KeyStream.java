package org.bitina.security;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pseudo-random int32 words from a key, as AES-128 in counter mode (NIST SP 800-38A): the
 * keystream of (key, domain, index) is a PRF output, so a switch that sees masked values learns
 * nothing of the masks. A plain seeded generator would not do: SplitMix-like states are
 * recovered from a few outputs, and a masked small value leaks most bits of its mask. One
 * instance per endpoint or tap (not thread-safe: it reuses its cipher and buffers).
 */
final class KeyStream {
    private final Cipher cipher;
    private final byte[] iv = new byte[16];
    private byte[] zeros = new byte[0];
    private byte[] out = new byte[0];

    KeyStream() {
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR is part of every Java 17 runtime", e);
        }
    }

    static SecretKeySpec key(byte[] k) {
        return new SecretKeySpec(k, 0, ValueKeys.KEY_BYTES, "AES");
    }

    /** {@code words} words of the stream of ({@code key}, {@code domain}, {@code index}) into {@code into}. */
    void words(SecretKeySpec key, int domain, long index, int[] into, int words) {
        ByteBuffer.wrap(iv).putInt(0, domain).putLong(4, index).putInt(12, 0);
        int bytes = words * 4;
        if (zeros.length < bytes) {
            zeros = new byte[bytes];
            out = new byte[bytes];
        }
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv));
            cipher.doFinal(zeros, 0, bytes, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR with a 128-bit key cannot fail", e);
        }
        ByteBuffer.wrap(out, 0, bytes)
                .order(ByteOrder.LITTLE_ENDIAN)
                .asIntBuffer()
                .get(into, 0, words);
    }
}
