package org.bitina.protocol;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.bitmap.HierarchicalBitmap;
import org.bitina.topology.Bift;

/**
 * The BIER forwarding step (RFC 8279 section 6.5; seed 000 requirement F3): the one place
 * where a multicast bitmap is turned into per-neighbour copies. No per-flow state is read
 * or written here; whether the caller installs a C-BM (MoE, self-installed ACK trees) is
 * decided from the result.
 */
public final class Replicator {
    private Replicator() {}

    /** One copy to a neighbour, carrying {@code BM AND F-BM} of that neighbour. */
    public record Copy(String neighbor, EndpointSet bitmap) {}

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
     * Replicates a packet bitmap as RFC 8279's loop does (while bits remain, take the lowest,
     * look up its neighbour and F-BM, send {@code remaining AND F-BM} there and clear those
     * bits), in one pass over the set bits: each bit goes to its neighbour's copy, and the
     * copies come out in the order of their lowest bits, as the loop emits them. So the cost
     * is the packet's bits, not the F-BMs' size. Copies keep the packet's encoding.
     */
    public static Result replicate(EndpointSet bitmap, Bift bift) {
        int capacity = bitmap.capacity();
        if (capacity != bift.capacity()) {
            throw new IllegalArgumentException("bitmap of " + capacity + " bits against a BIFT of " + bift.capacity());
        }
        int words = (capacity + 63) >>> 6;
        long[] local = null;
        long[] unreachable = null;
        long[][] toNeighbor = new long[bift.neighbors().size()][];
        int[] order = new int[toNeighbor.length];
        int copies = 0;
        for (int k = bitmap.nextSetBit(0); k >= 0; k = bitmap.nextSetBit(k + 1)) {
            if (bift.isLocal(k)) {
                local = set(local, words, k);
                continue;
            }
            int h = bift.hopOf(k);
            if (h < 0) {
                // unassigned or unreachable position: it cannot be delivered from here
                unreachable = set(unreachable, words, k);
                continue;
            }
            if (toNeighbor[h] == null) {
                order[copies++] = h;
            }
            toNeighbor[h] = set(toNeighbor[h], words, k);
        }
        int block = blockSizeOf(bitmap);
        List<Copy> out = new ArrayList<>(copies);
        for (int i = 0; i < copies; i++) {
            out.add(new Copy(
                    bift.neighbor(order[i]),
                    FlatBitmap.ofWords(capacity, toNeighbor[order[i]]).to(bitmap.encoding(), block)));
        }
        EndpointSet localSet = flat(capacity, local).to(bitmap.encoding(), block);
        FlatBitmap unreachableSet = flat(capacity, unreachable);
        int branches = copies + (local == null ? 0 : 1);
        return new Result(
                List.copyOf(out),
                localSet,
                unreachableSet.to(bitmap.encoding(), block),
                branches > 1 ? bitmap.andNot(unreachableSet) : null);
    }

    private static long[] set(long[] words, int size, int bit) {
        long[] w = words == null ? new long[size] : words;
        w[bit >>> 6] |= 1L << (bit & 63);
        return w;
    }

    private static FlatBitmap flat(int capacity, long[] words) {
        return words == null ? FlatBitmap.of(capacity) : FlatBitmap.ofWords(capacity, words);
    }

    private static int blockSizeOf(EndpointSet set) {
        return set instanceof HierarchicalBitmap h ? h.blockSize() : 1;
    }
}
