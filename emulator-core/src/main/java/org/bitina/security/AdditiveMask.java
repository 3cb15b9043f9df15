package org.bitina.security;

import javax.crypto.spec.SecretKeySpec;

/**
 * S6, privacy of values (seed 000 section 8): additive masking for int32 sums, as in Bonawitz
 * et al., "Practical Secure Aggregation for Privacy-Preserving Machine Learning" (CCS 2017). The
 * members of a job, in their order 0..n-1, stand on a ring; edge e joins member e and member
 * e+1 (mod n) and has a seed of its own. Member p adds to its chunk the stream of edge p and
 * subtracts that of edge p-1, so the masks of all members sum to zero mod 2^32: switches add
 * masked values with the ALU's two's-complement wrap, never hold a cleartext contribution, and
 * the complete sum is the true sum. A sum over a subset H of the members (a partial result)
 * keeps the streams of the edges with one end in H: the receiver takes them off
 * ({@link #unmask}).
 *
 * <p>Ring edges cost two keystreams per member and chunk, whatever n (Bonawitz's complete graph
 * costs n-1; Bell et al., CCS 2020, O(log n)). Against the switches, which hold no seed, one
 * unknown edge hides a contribution. Against members: the two ring neighbours of a member hold
 * both of its seeds and, together, could unmask it; more edges per member would close that, at
 * their cost, and are not built.
 *
 * <p>A real deployment agrees each edge's seed between its two members (Diffie-Hellman), and
 * needs the seeds of absent members to be recoverable to take a partial sum's residual masks
 * off (Bonawitz: shares of each seed, t of n). The emulator's endpoints derive every edge's seed
 * from the job's mask key ({@link ValueKeys#maskKey}), which the switches never get.
 *
 * <p>With a checksum ({@link LinearChecksum}), a mask's checksum words are the checksum of its
 * data words, so a masked packet keeps the checksum invariant and switches' ports can be audited
 * without unmasking anything ({@link ChecksumAudit}).
 */
public final class AdditiveMask {
    private static final int DOMAIN = 0x53364d4b; // "S6MK"
    private final byte[] maskKey;
    private final int members;
    private final SecretKeySpec[] edges;
    private final KeyStream stream = new KeyStream();
    private int[] words = new int[0];

    /** @param members how many members the job has; their positions are 0..members-1 */
    public AdditiveMask(byte[] maskKey, int members) {
        this.maskKey = maskKey.clone();
        this.members = members;
        this.edges = new SecretKeySpec[members];
    }

    private SecretKeySpec edge(int e) {
        if (edges[e] == null) {
            edges[e] = KeyStream.key(ValueKeys.hkdf(maskKey, "edge " + e + " of " + members, ValueKeys.KEY_BYTES));
        }
        return edges[e];
    }

    /**
     * Adds member {@code position}'s mask for {@code chunk} to {@code v}, whose first {@code n}
     * words are data; with {@code checksum}, the mask's checksum goes on the words after them.
     */
    public void mask(long chunk, int position, int[] v, int n, LinearChecksum checksum) {
        if (members < 2) {
            return; // a job of one: its result is its own value, nothing to hide it from
        }
        int[] m = new int[v.length];
        addEdge(chunk, position, 1, m, n);
        addEdge(chunk, (position + members - 1) % members, -1, m, n);
        add(v, m, n, checksum, chunk, 1);
    }

    /**
     * Takes off {@code v} (a sum over the members whose positions are set in {@code present})
     * the masks that do not cancel in it: those of the edges with exactly one end present.
     * Nothing to take off a sum over every member.
     */
    public void unmask(long chunk, boolean[] present, int[] v, int n, LinearChecksum checksum) {
        if (members < 2) {
            return;
        }
        int[] m = null;
        for (int e = 0; e < members; e++) {
            // member e adds edge e, member e+1 subtracts it
            int sign = (present[e] ? 1 : 0) - (present[(e + 1) % members] ? 1 : 0);
            if (sign != 0) {
                if (m == null) {
                    m = new int[v.length];
                }
                addEdge(chunk, e, sign, m, n);
            }
        }
        if (m != null) {
            add(v, m, n, checksum, chunk, -1);
        }
    }

    private void addEdge(long chunk, int e, int sign, int[] m, int n) {
        if (words.length < n) {
            words = new int[n];
        }
        stream.words(edge(e), DOMAIN, chunk, words, n);
        for (int i = 0; i < n; i++) {
            m[i] += sign * words[i];
        }
    }

    private static void add(int[] v, int[] m, int n, LinearChecksum checksum, long chunk, int sign) {
        if (checksum != null && v.length >= n + LinearChecksum.ELEMENTS) {
            checksum.fill(chunk, m, n);
        }
        for (int i = 0; i < v.length; i++) {
            v[i] += sign * m[i];
        }
    }
}
