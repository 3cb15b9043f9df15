package org.bitina.usecase.reduction;

import org.bitina.scenario.Scenario;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;

/**
 * What a phase of an array kind (AllReduce, BIER-INC) sends when nothing is lost ({@link PhaseEstimate}),
 * from its data: C chunks of the array per member, N members, a window of W chunks in flight.
 */
public final class ArrayEstimates {
    private ArrayEstimates() {}

    /**
     * INA: every member's C contributions, at most one aggregate per chunk from every switch and the
     * root's result per chunk; C/W windows, each a round trip. PS: N x C contributions in, as many
     * results out (the server's link carries them all). A host schedule (ring, tree, halving-doubling,
     * hierarchical): each member sends at most 4 C packets (a ring sends 2 (N-1)/N C; the others at most
     * twice the array up and down), in up to 2 N steps per window.
     */
    public static PhaseEstimate of(ArrayPhases.JobSpecWithData job, Phase p, Scenario s) {
        DataSpec d = job.data();
        long c = d.chunks();
        long n = job.common().members().size();
        long packetBytes = (long) d.chunk() * d.type().bytes();
        long windows = (c + d.window() - 1) / Math.max(1, d.window());
        if (p.mode().inNetwork()) {
            return new PhaseEstimate(c * (n + s.topology().switches().size() + 1), c * packetBytes, windows);
        }
        if (p.mode().equals(ArrayPhases.PS)) {
            return new PhaseEstimate(2 * n * c, n * c * packetBytes, windows);
        }
        return new PhaseEstimate(4 * n * c, 4 * c * packetBytes, 2 * n * windows);
    }
}
