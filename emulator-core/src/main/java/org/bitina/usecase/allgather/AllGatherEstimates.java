package org.bitina.usecase.allgather;

import org.bitina.job.Mode;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.reduction.DataSpec;

/**
 * What an all-gather phase sends when nothing is lost ({@link PhaseEstimate}) and its bus factor
 * ({@link UseCase.Bandwidth}), from its routes ({@link GatherRoutes}): C chunks of the array, chunk c
 * owned by member c mod N, a window of W chunks per member. Acknowledgements carry no payload: they
 * count as packets, not as a sender's bytes.
 */
final class AllGatherEstimates {
    private AllGatherEstimates() {}

    /**
     * INA: per chunk one multicast from its owner (the switches' copies are not counted again) and an
     * acknowledgement from each of the N-1 others: C N (none with one member, who sends nothing). The
     * busiest owner sends its shard once; each window of its own chunks is one round trip. Ring: per
     * chunk N-1 sends, the owner's to its successor and each member's on until the owner's predecessor
     * holds it, each acknowledged: 2 C (N-1). The busiest member passes on every chunk but its
     * successor's shard; each window's chunks go N-1 hops round the ring one after the other.
     */
    static PhaseEstimate of(AllGatherSpec job, Phase p) {
        DataSpec d = job.data();
        int n = job.common().members().size();
        long chunks = d.chunks();
        boolean ring = p.mode().equals(AllGatherJobReader.RING);
        Load load = load(d, n, ring);
        long senderBytes = load.mostSent() * d.type().bytes();
        if (ring) {
            long windows = Math.max(1, (chunks + d.window() - 1) / Math.max(1, d.window()));
            return new PhaseEstimate(2 * chunks * (n - 1), senderBytes, Math.max(1, n - 1) * windows);
        }
        long ownWindows = Math.max(1, (load.mostOwnedChunks() + d.window() - 1) / Math.max(1, d.window()));
        return new PhaseEstimate(n > 1 ? chunks * n : 0, senderBytes, ownWindows);
    }

    /**
     * nccl-tests' terms ({@link UseCase.Bandwidth}): the gathered array's bytes (what every member ends
     * with), and the mode's bus factor, the most payload one member sends or receives per byte of it.
     * Both modes: a member receives every shard but its own, (N-1)/N when N divides the chunks (NCCL's
     * factor for all-gather); in the network it sends its own shard only once, so receiving bounds it.
     * NaN for a mode the kind does not run.
     */
    static UseCase.Bandwidth bandwidth(AllGatherSpec job, Mode mode) {
        DataSpec d = job.data();
        long arrayBytes = (long) d.elements() * d.type().bytes();
        boolean ring = mode.equals(AllGatherJobReader.RING);
        if (!ring && !mode.inNetwork()) {
            return new UseCase.Bandwidth(arrayBytes, Double.NaN);
        }
        Load load = load(d, job.common().members().size(), ring);
        return new UseCase.Bandwidth(arrayBytes, (double) Math.max(load.mostSent(), load.mostGot()) / d.elements());
    }

    /** The most elements one member sends, the most one receives, and the most chunks one member owns. */
    private record Load(long mostSent, long mostGot, long mostOwnedChunks) {}

    private static Load load(DataSpec d, int n, boolean ring) {
        DataSpec data = d; // chunk lengths only: no inputs drawn
        long[] owned = new long[n];
        long[] ownedChunks = new long[n];
        for (int c = 0; c < data.chunks(); c++) {
            int o = GatherRoutes.owner(c, n);
            owned[o] += data.chunkLength(c);
            ownedChunks[o]++;
        }
        long total = d.elements();
        long sent = 0;
        long got = 0;
        long most = 0;
        for (int m = 0; m < n; m++) {
            // every member receives each shard but its own, once
            got = Math.max(got, total - owned[m]);
            // the ring passes on every chunk but its successor's; the multicast sends its own shard once
            sent = Math.max(sent, n == 1 ? 0 : ring ? total - owned[(m + 1) % n] : owned[m]);
            most = Math.max(most, ownedChunks[m]);
        }
        return new Load(sent, got, most);
    }
}
