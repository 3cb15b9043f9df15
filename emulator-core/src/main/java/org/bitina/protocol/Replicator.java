package org.bitina.protocol;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.topology.Bift;

/**
 * The BIER forwarding step (RFC 8279 section 6.5; seed 000 requirement F3): the one place
 * where a multicast bitmap is turned into per-neighbour copies. No per-flow state is read
 * or written here; whether the caller installs a C-BM (MoE, self-installed ACK trees) is
 * decided from the result.
 */
public final class Replicator {
    private Replicator() {
    }

    /** One copy to a neighbour, carrying {@code BM AND F-BM} of that neighbour. */
    public record Copy(String neighbor, EndpointSet bitmap) {
    }

    /**
     * @param copies      per-neighbour copies, in the order RFC 8279's loop emits them
     * @param local       bits naming this node (delivered locally), possibly empty
     * @param unreachable bits no neighbour reaches (dropped and counted by the caller)
     * @param cbm         the C-BM a branch node installs (seed 000 section 4: the union of the
     *                    subsets sent downstream, local delivery included), or null when the
     *                    packet leaves over at most one branch and nothing is installed (M2)
     */
    public record Result(List<Copy> copies, EndpointSet local, EndpointSet unreachable, EndpointSet cbm) {
        public int branches() {
            return copies.size() + (local.isEmpty() ? 0 : 1);
        }

        public boolean isBranch() {
            return cbm != null;
        }
    }

    /**
     * Replicates a packet bitmap: while bits remain, take the lowest, look up its neighbour
     * and F-BM, send {@code remaining AND F-BM} there and clear those bits. Copies keep the
     * packet's encoding; the walk itself runs on a flat bitmap, as a switch pipeline does.
     */
    public static Result replicate(EndpointSet bitmap, Bift bift) {
        if (bitmap.capacity() != bift.capacity()) {
            throw new IllegalArgumentException("bitmap of " + bitmap.capacity() + " bits against a BIFT of " + bift.capacity());
        }
        FlatBitmap remaining = bitmap.toFlat();
        FlatBitmap local = remaining.and(bift.local());
        remaining = remaining.andNot(local);
        FlatBitmap unreachable = FlatBitmap.of(bitmap.capacity());
        List<Copy> copies = new ArrayList<>(4);
        for (int k = remaining.nextSetBit(0); k >= 0; k = remaining.nextSetBit(k + 1)) {
            String neighbor = bift.neighborFor(k);
            if (neighbor == null) {
                // unassigned or unreachable position: it cannot be delivered from here
                FlatBitmap bit = FlatBitmap.of(bitmap.capacity(), k);
                unreachable = unreachable.or(bit);
                remaining = remaining.andNot(bit);
                continue;
            }
            FlatBitmap fbm = bift.forwardingBitmap(neighbor);
            copies.add(new Copy(neighbor, remaining.and(fbm).to(bitmap.encoding(), blockSizeOf(bitmap))));
            remaining = remaining.andNot(fbm);
        }
        EndpointSet delivered = bitmap.andNot(unreachable);
        int branches = copies.size() + (local.isEmpty() ? 0 : 1);
        return new Result(List.copyOf(copies),
                local.to(bitmap.encoding(), blockSizeOf(bitmap)),
                unreachable.to(bitmap.encoding(), blockSizeOf(bitmap)),
                branches > 1 ? delivered : null);
    }

    private static int blockSizeOf(EndpointSet set) {
        return set instanceof org.bitina.bitmap.HierarchicalBitmap h ? h.blockSize() : 1;
    }
}
