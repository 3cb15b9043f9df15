package org.bitina.protocol;

import java.util.Set;
import org.bitina.wire.Payload;

/**
 * The {@code malicious-switch} fault (S6): from its time on, the switch adds a deterministic
 * corruption to the AllReduce sums it emits (up its VAT, or multicast as the root's result),
 * for the chunks named or every chunk. It knows nothing of the job's checksum coefficients: it
 * changes one element by an odd amount, as a bit flip in the ALU's low bits would, and leaves
 * the checksum words alone (or not, when the element it picks is one of them).
 *
 * @param chunks the sequence ids it corrupts; empty: all
 */
public record Tamper(Set<Long> chunks) {
    public Tamper {
        chunks = Set.copyOf(chunks);
    }

    /** The payload a sum of chunk {@code seq} leaves with: a corrupted copy, or {@code p} itself for a chunk left alone. */
    public Payload apply(long seq, Payload p) {
        if (!(chunks.isEmpty() || chunks.contains(seq)) || p.elements() == 0) {
            return p;
        }
        Payload q = p.copy();
        int at = (int) (seq % q.elements());
        if (q instanceof Payload.Int32 i) {
            i.values()[at] += (int) (seq * 0x9E3779B9L) | 1;
        } else if (q instanceof Payload.Float32 f) {
            f.values()[at] += 1.0f;
        }
        return q;
    }
}
