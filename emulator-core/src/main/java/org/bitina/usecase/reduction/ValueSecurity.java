package org.bitina.usecase.reduction;

import org.bitina.security.LinearChecksum;

/**
 * S6 for one AllReduce job (its {@code security { masking, checksum }}; both off by default, as
 * the seed makes them optional and negotiated per job): additive masks that cancel in the sum,
 * and a random linear checksum the workers check, falling back to the host ring for a chunk
 * whose result fails it. Both need an int32 sum; the loader refuses them otherwise.
 */
public record ValueSecurity(boolean masking, boolean checksum) {
    public static final ValueSecurity OFF = new ValueSecurity(false, false);

    public boolean any() {
        return masking || checksum;
    }

    /** Extra int32 words a contribution carries. */
    public int extraElements() {
        return checksum ? LinearChecksum.ELEMENTS : 0;
    }
}
