package org.bitina.usecase.reducescatter;

import org.bitina.job.Mode;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.reduction.DataSpec;

/**
 * What a reduce-scatter phase sends when nothing is lost ({@link PhaseEstimate}) and its bus factor
 * ({@link UseCase.Bandwidth}), from its plan: C chunks of the array, chunk c owned by member c mod N
 * ({@link RingReduceScatter#owner}), a window of W chunks per member. Acknowledgements and notices
 * carry no payload: they count as packets, not as a sender's bytes.
 */
final class ReduceScatterEstimates {
    private ReduceScatterEstimates() {}

    /**
     * INA: per chunk every member's contribution (N), one aggregate from each VAT node below the root
     * (as the phase's tables install them, so a repaired tree counts its own), and from the root the
     * owner's result and one notice to the others (a replicated copy is not counted again): C (N + A +
     * 2). Every member sends its whole array; each window of chunks is one round trip to the root.
     * Ring: per chunk N-1 sends, by every member but the owner ({@link RingReduceScatter}), each
     * acknowledged: 2 C (N-1). The busiest member sends every chunk but its own shard's; each window's
     * chunks go N-1 hops round the ring one after the other.
     */
    static PhaseEstimate of(ReduceScatterSpec job, Phase p) {
        DataSpec d = job.data();
        int n = job.common().members().size();
        long chunks = d.chunks();
        long windows = Math.max(1, (chunks + d.window() - 1) / Math.max(1, d.window()));
        boolean ring = p.mode().equals(ReduceScatterJobReader.RING);
        long senderBytes = load(d, n, ring).mostSent() * d.type().bytes();
        if (ring) {
            return new PhaseEstimate(2 * chunks * (n - 1), senderBytes, Math.max(1, n - 1) * windows);
        }
        long aggregators = p.tables().values().stream()
                .filter(t -> t.registered() != null && !t.root())
                .count();
        long fromRoot = n > 1 ? 2 : 1;
        return new PhaseEstimate(chunks * (n + aggregators + fromRoot), senderBytes, windows);
    }

    /**
     * nccl-tests' terms ({@link UseCase.Bandwidth}): the array's bytes (what every member contributes),
     * and the mode's bus factor, the most payload one member sends or receives per byte of it. Ring: it
     * passes on every chunk but its own shard's, (N-1)/N when N divides the chunks (NCCL's factor for
     * reduce-scatter). INA: 1, each member sends its whole array up (the sums come back to their owners
     * alone, 1/N of it), as AllReduce's INA. NaN for a mode the kind does not run.
     */
    static UseCase.Bandwidth bandwidth(ReduceScatterSpec job, Mode mode) {
        DataSpec d = job.data();
        long arrayBytes = (long) d.elements() * d.type().bytes();
        boolean ring = mode.equals(ReduceScatterJobReader.RING);
        if (!ring && !mode.inNetwork()) {
            return new UseCase.Bandwidth(arrayBytes, Double.NaN);
        }
        Load load = load(d, job.common().members().size(), ring);
        return new UseCase.Bandwidth(arrayBytes, (double) Math.max(load.mostSent(), load.mostGot()) / d.elements());
    }

    /** The most elements one member sends, and the most one receives. */
    private record Load(long mostSent, long mostGot) {}

    private static Load load(DataSpec d, int n, boolean ring) {
        DataSpec data = d; // chunk lengths only: no inputs drawn
        long[] owned = new long[n];
        for (int c = 0; c < data.chunks(); c++) {
            owned[RingReduceScatter.owner(c, n)] += data.chunkLength(c);
        }
        long total = d.elements();
        long sent = 0;
        long got = 0;
        for (int m = 0; m < n; m++) {
            if (ring) {
                // on to the successor: every chunk but its own; from the predecessor: every chunk but the predecessor's
                sent = Math.max(sent, total - owned[m]);
                got = Math.max(got, total - owned[(m + n - 1) % n]);
            } else {
                // up: the whole array; down: its own shard's sums (the notices carry none)
                sent = total;
                got = Math.max(got, owned[m]);
            }
        }
        return new Load(sent, got);
    }
}
