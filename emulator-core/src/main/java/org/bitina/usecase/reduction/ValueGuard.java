package org.bitina.usecase.reduction;

import java.util.Arrays;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.security.AdditiveMask;
import org.bitina.security.LinearChecksum;
import org.bitina.security.ValueKeys;
import org.bitina.wire.Payload;

/**
 * A worker's S6 end of the values (pure): what a contribution leaves with (its checksum words
 * appended, then its mask added) and what a result comes back as (the checksum checked, the
 * masks of absent members taken off, the checksum words dropped), so that the emulator's
 * {@link Verifier} judges the cleartext sum as before. Without S6 both are the identity.
 */
final class ValueGuard {
    private final AllReducePlan plan;
    private final LinearChecksum checksum;
    private final AdditiveMask mask;
    /** Member position (the order of the job's members, the mask ring's order) by bit; null without masking. */
    private final int[] positionOfBit;

    /** @param endpointSecret what the job's endpoints share ({@link ValueKeys#endpointSecret}); needed when the plan has S6 */
    ValueGuard(AllReducePlan plan, byte[] endpointSecret) {
        this.plan = plan;
        ValueSecurity v = plan.values() == null ? ValueSecurity.OFF : plan.values();
        if (v.any() && endpointSecret == null) {
            throw new IllegalStateException("job " + plan.jobName()
                    + " masks or checksums its values: its workers need the job's endpoint secret");
        }
        this.checksum = v.checksum() ? new LinearChecksum(ValueKeys.checksumKey(endpointSecret)) : null;
        this.mask = v.masking()
                ? new AdditiveMask(
                        ValueKeys.maskKey(endpointSecret), plan.members().size())
                : null;
        // only the masks need it: an array of the bit space per worker was 16 GiB at 65,536 workers (and O(N^2) to
        // fill)
        this.positionOfBit = mask == null ? null : positions(plan);
    }

    private static int[] positions(AllReducePlan plan) {
        int[] at = new int[plan.space().capacity()];
        Arrays.fill(at, -1);
        List<String> m = plan.members();
        for (int i = 0; i < m.size(); i++) {
            at[plan.space().index(m.get(i))] = i;
        }
        return at;
    }

    boolean checksummed() {
        return checksum != null;
    }

    /** The payload worker {@code bit} sends for {@code chunk}, from its cleartext one. */
    Payload encode(int bit, long chunk, Payload clear) {
        if (checksum == null && mask == null) {
            return clear;
        }
        int[] x = ((Payload.Int32) clear).values();
        int[] v = checksum != null ? checksum.append(chunk, x) : x.clone();
        if (mask != null) {
            mask.mask(chunk, positionOfBit[bit], v, x.length, checksum);
        }
        return Payload.of(v);
    }

    /** A result, decoded: its cleartext payload, or null when it failed the checksum. */
    Payload decode(long chunk, EndpointSet holds, Payload got) {
        if (checksum == null && mask == null) {
            return got;
        }
        if (!(got instanceof Payload.Int32 gi) || gi.elements() <= (checksum != null ? LinearChecksum.ELEMENTS : 0)) {
            return checksum != null ? null : got; // no room for what S6 adds: not this job's result
        }
        int[] y = gi.values();
        if (checksum != null && !checksum.holds(chunk, y)) {
            return null;
        }
        int n = y.length - (checksum != null ? LinearChecksum.ELEMENTS : 0);
        int[] v = y.clone();
        if (mask != null) {
            boolean[] present = new boolean[plan.members().size()];
            for (int b : holds.indices()) {
                if (b < positionOfBit.length && positionOfBit[b] >= 0) {
                    present[positionOfBit[b]] = true;
                }
            }
            mask.unmask(chunk, present, v, n, checksum);
        }
        return Payload.of(n == v.length ? v : Arrays.copyOf(v, n));
    }
}
