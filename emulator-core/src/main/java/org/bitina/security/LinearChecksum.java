package org.bitina.security;

import java.util.Arrays;
import javax.crypto.spec.SecretKeySpec;

/**
 * S6, the end-to-end verifier (seed 000 section 8): a random linear checksum over an int32
 * chunk. A contribution x of n elements travels as n + {@link #ELEMENTS} elements, the extra
 * ones c_k = sum_i r_k,i * x_i mod 2^32, with the coefficients r drawn per chunk from the job's
 * checksum key, which no switch's data plane holds. Linear, so a switch sums the checksum as it
 * sums any element, and every honest sum y (partial or complete, masked or not: masks are made
 * to keep it, {@link AdditiveMask}) satisfies sum_i r_k,i * y_i = y_(n+k). A switch that changes
 * a sum without r breaks that unless its change e happens to satisfy sum_i r_k,i * e_i = 0 for
 * every k: for a change of one element by an odd amount, with probability 2^-64; for changes that
 * are all multiples of 2^j, 2^-(2 (32 - j)) (a mod-2^32 checksum cannot see the high bits better).
 */
public final class LinearChecksum {
    /** Checksum words per chunk: two, so that a random corruption passes with probability 2^-64. */
    public static final int ELEMENTS = 2;

    private static final int DOMAIN = 0x53364353; // "S6CS"
    private final SecretKeySpec key;
    private final KeyStream stream = new KeyStream();
    private int[] r = new int[0];
    /** The chunk and length {@code r} holds: a worker appends, masks and checks one chunk in a row, a tap sees copies of one. */
    private long rChunk = -1;

    private int rLength = -1;

    public LinearChecksum(byte[] checksumKey) {
        this.key = KeyStream.key(checksumKey);
    }

    /** The coefficients of {@code chunk} for {@code n} data elements: r_k,i at {@code k * n + i}. */
    private int[] coefficients(long chunk, int n) {
        if (chunk == rChunk && n == rLength) {
            return r;
        }
        if (r.length < ELEMENTS * n) {
            r = new int[ELEMENTS * n];
        }
        // the chunk's length is part of the domain: a chunk cut shorter is another vector
        stream.words(key, DOMAIN ^ n, chunk, r, ELEMENTS * n);
        rChunk = chunk;
        rLength = n;
        return r;
    }

    /** {@code x} with its checksum words appended. */
    public int[] append(long chunk, int[] x) {
        int[] v = Arrays.copyOf(x, x.length + ELEMENTS);
        fill(chunk, v, x.length);
        return v;
    }

    /** Writes the checksum of {@code v[0..n)} into {@code v[n..n+ELEMENTS)}. */
    public void fill(long chunk, int[] v, int n) {
        int[] c = coefficients(chunk, n);
        for (int k = 0; k < ELEMENTS; k++) {
            int s = 0;
            int base = k * n;
            for (int i = 0; i < n; i++) {
                s += c[base + i] * v[i];
            }
            v[n + k] = s;
        }
    }

    /** Whether {@code y} (data then checksum words) keeps the invariant; false for one too short to carry a checksum. */
    public boolean holds(long chunk, int[] y) {
        int n = y.length - ELEMENTS;
        if (n < 1) {
            return false;
        }
        int[] c = coefficients(chunk, n);
        for (int k = 0; k < ELEMENTS; k++) {
            int s = 0;
            int base = k * n;
            for (int i = 0; i < n; i++) {
                s += c[base + i] * y[i];
            }
            if (s != y[n + k]) {
                return false;
            }
        }
        return true;
    }
}
