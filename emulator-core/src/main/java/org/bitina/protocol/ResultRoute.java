package org.bitina.protocol;

import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;

/**
 * Where a VAT root sends a chunk's result (A5), as the plan installs it. {@link #NODE_BITMAP}, the
 * default: every endpoint the multicast bitmap names gets the result (F6, AllReduce). A rule with
 * owners gives chunk {@code s}'s result, payload and all, only to owner {@code s mod n} (a one-bit
 * bitmap), and sends the bitmap's other endpoints a completion notice: the result's header and
 * provenance without its payload, a few dozen bytes. Their contribution was folded in (or, a partial
 * notice says, was not), so their window moves on and their loss recovery works as with the result.
 *
 * @param owners the owners' bit positions, in chunk order (chunk s to {@code owners[s mod n]}); empty: no owners
 */
public record ResultRoute(List<Integer> owners) {
    public static final ResultRoute NODE_BITMAP = new ResultRoute(List.of());

    public ResultRoute {
        owners = List.copyOf(owners);
        if (owners.stream().anyMatch(b -> b < 0)) {
            throw new IllegalArgumentException("an owner's bit position is negative: " + owners);
        }
    }

    /** Chunk s's result goes to owner {@code owners[s mod n]} alone. */
    public static ResultRoute toOwners(List<Integer> owners) {
        if (owners.isEmpty()) {
            throw new IllegalArgumentException("a result route by owner needs at least one owner");
        }
        return new ResultRoute(owners);
    }

    public boolean byOwner() {
        return !owners.isEmpty();
    }

    /** The bit position of the owner of chunk {@code seq}. */
    public int owner(long seq) {
        return owners.get((int) Math.floorMod(seq, (long) owners.size()));
    }

    /** Of the endpoints in {@code to}, those that get chunk {@code seq}'s payload (all of them without owners). */
    EndpointSet payloadTo(EndpointSet to, long seq) {
        if (!byOwner()) {
            return to;
        }
        int bit = owner(seq);
        return bit < to.capacity() ? to.and(FlatBitmap.of(to.capacity(), bit)) : to.andNot(to);
    }
}
