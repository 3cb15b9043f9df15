package org.bitina.security;

import java.nio.charset.StandardCharsets;

/**
 * S6 keys, derived with HKDF-SHA256 (RFC 5869) from the run's secret under labels of their own,
 * never from a job's packet-tag key (S2): switches hold that key, so anything derived from it
 * would be theirs too. A job's endpoints get the endpoint secret, from which the mask key and
 * the checksum key derive; the switches' audit taps get only the checksum key (the controller's,
 * see {@link ChecksumAudit}); no switch ever gets the mask key.
 */
public final class ValueKeys {
    public static final int KEY_BYTES = 16;

    private ValueKeys() {}

    /** What the endpoints of job {@code (tenant, job)} of a run with {@code runSecret} share. */
    public static byte[] endpointSecret(byte[] runSecret, int tenant, int job) {
        return hkdf(runSecret, "bitina s6 endpoints " + tenant + "/" + job, 32);
    }

    /** The key the pairwise mask seeds derive from ({@link AdditiveMask}). */
    public static byte[] maskKey(byte[] endpointSecret) {
        return hkdf(endpointSecret, "masks", KEY_BYTES);
    }

    /** The key of the checksum coefficients ({@link LinearChecksum}). */
    public static byte[] checksumKey(byte[] endpointSecret) {
        return hkdf(endpointSecret, "checksum", KEY_BYTES);
    }

    static byte[] hkdf(byte[] ikm, String info, int bytes) {
        return Hkdf.sha256(null, ikm, info.getBytes(StandardCharsets.US_ASCII), bytes);
    }
}
