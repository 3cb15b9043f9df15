package org.bitina.usecase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.protocol.TimeCurve;
import org.bitina.topology.BitSpace;

/**
 * What an endpoint reports at the end of a job phase.
 *
 * @param chunks          chunks (or tokens, windows) expected
 * @param received        chunks with a result
 * @param partialChunks   chunks whose result lacks contributions, with the missing endpoints
 * @param mismatches      results that failed verification (never empty silently: each named)
 * @param lastVt          modelled time of the last result, nanoseconds
 * @param verifiedChunks  chunks checked against the reference and found right
 * @param dropped         what the endpoint itself dropped by policy (MoE tokens over expert capacity)
 * @param stats           counters particular to the role (rounds, ACK packets, duplicates suppressed)
 * @param values          S6 at an AllReduce worker (masking, checksum, the chunks that failed it and fell back), or null
 * @param unitVt          per unit (chunk, token, window) the modelled time of its first result at this endpoint, nanoseconds,
 *                        -1 for a unit without one; null for a role that does not end its phase (servers, experts, receivers)
 * @param gaveUp          what the endpoint gave up on after its sends ran out (a result it never got, an acknowledgement
 *                        that never came), each naming its chunk: its own outcome, not a wrong value ({@code mismatches})
 * @param pace            under congestion control, how fast the endpoint was let send over modelled time: a DCQCN
 *                        sender's rate in bits per second, an INA worker's window in chunks; null without
 */
public record DriverReport(
        String endpoint,
        Role role,
        int chunks,
        int received,
        List<PartialChunk> partialChunks,
        List<String> mismatches,
        long lastVt,
        int verifiedChunks,
        boolean done,
        List<String> dropped,
        Map<String, Long> stats,
        ValueChecks values,
        long[] unitVt,
        List<String> gaveUp,
        TimeCurve.Range pace) {
    public DriverReport {
        gaveUp = gaveUp == null ? List.of() : List.copyOf(gaveUp);
    }

    /** A report of {@code endpoint} built field by field; what is not set is empty, zero or false. */
    public static Builder of(String endpoint, Role role) {
        return new Builder(endpoint, role);
    }

    /** A builder holding this report's fields, to change some. */
    public Builder toBuilder() {
        return new Builder(endpoint, role)
                .chunks(chunks)
                .received(received)
                .partialChunks(partialChunks)
                .mismatches(mismatches)
                .lastVt(lastVt)
                .verifiedChunks(verifiedChunks)
                .done(done)
                .dropped(dropped)
                .stats(stats)
                .values(values)
                .unitVt(unitVt)
                .gaveUp(gaveUp)
                .pace(pace);
    }

    /**
     * The stats a job's row takes the smallest of over its endpoints (every other one is summed): the
     * smallest congestion window any INA worker ran at, the lowest rate any host baseline's member sent at.
     */
    public static final String SMALLEST_WINDOW = "smallestWindow";

    /** The lowest rate any DCQCN queue pair of the endpoint ran at, bits per second. */
    public static final String LOWEST_RATE = "lowestRateBps";

    public static boolean takesTheSmallest(String stat) {
        return stat.equals(SMALLEST_WINDOW) || stat.equals(LOWEST_RATE);
    }

    /** Names every field, so that a driver's report cannot put one list where another belongs. */
    public static final class Builder {
        private final String endpoint;
        private final Role role;
        private int chunks;
        private int received;
        private List<PartialChunk> partialChunks = List.of();
        private List<String> mismatches = List.of();
        private long lastVt;
        private int verifiedChunks;
        private boolean done;
        private List<String> dropped = List.of();
        private Map<String, Long> stats = Map.of();
        private ValueChecks values;
        private long[] unitVt;
        private List<String> gaveUp = List.of();
        private TimeCurve.Range pace;

        private Builder(String endpoint, Role role) {
            this.endpoint = endpoint;
            this.role = role;
        }

        public Builder chunks(int v) {
            chunks = v;
            return this;
        }

        public Builder received(int v) {
            received = v;
            return this;
        }

        public Builder partialChunks(List<PartialChunk> v) {
            partialChunks = v;
            return this;
        }

        public Builder mismatches(List<String> v) {
            mismatches = v;
            return this;
        }

        public Builder lastVt(long v) {
            lastVt = v;
            return this;
        }

        public Builder verifiedChunks(int v) {
            verifiedChunks = v;
            return this;
        }

        public Builder done(boolean v) {
            done = v;
            return this;
        }

        public Builder dropped(List<String> v) {
            dropped = v;
            return this;
        }

        public Builder stats(Map<String, Long> v) {
            stats = v;
            return this;
        }

        public Builder values(ValueChecks v) {
            values = v;
            return this;
        }

        public Builder unitVt(long[] v) {
            unitVt = v;
            return this;
        }

        public Builder gaveUp(List<String> v) {
            gaveUp = v;
            return this;
        }

        public Builder pace(TimeCurve.Range v) {
            pace = v;
            return this;
        }

        public DriverReport build() {
            return new DriverReport(
                    endpoint,
                    role,
                    chunks,
                    received,
                    partialChunks,
                    mismatches,
                    lastVt,
                    verifiedChunks,
                    done,
                    dropped,
                    stats,
                    values,
                    unitVt,
                    gaveUp,
                    pace);
        }
    }

    /**
     * What a worker's S6 checks found.
     *
     * @param failed   chunks whose network result failed the checksum
     * @param fellBack chunks whose result came from the fallback host ring and checked out
     */
    public record ValueChecks(boolean masking, boolean checksum, List<Long> failed, List<Long> fellBack) {}

    public DriverReport withValues(ValueChecks v) {
        return toBuilder().values(v).build();
    }

    /** This report with the endpoint's per-unit completion times ({@link CompletionTimes}). */
    public DriverReport withUnitTimes(CompletionTimes t) {
        return toBuilder().unitVt(t.toArray()).build();
    }

    /** This report with what the endpoint gave up on ({@link #gaveUp}). */
    public DriverReport withGaveUp(List<String> g) {
        return toBuilder().gaveUp(g).build();
    }

    /** What an endpoint does in its phase, and so what its report means to the phase's end. */
    public enum Role {
        WORKER(true, false),
        RING_WORKER(true, false),
        INC_WORKER(true, false),
        PARAMETER_SERVER(false, false),
        MOE_SOURCE(true, false),
        EXPERT(false, false),
        MULTICAST_SOURCE(true, false),
        /** A multicast receiver: it serves the source, but must hold the whole block at the end (R5). */
        RECEIVER(false, true),
        /** A hostile endpoint of the scenario's attacks: nothing waits for it, nothing is checked of it. */
        ATTACKER(false, false),
        /** A host's part of background traffic (T3): the phase waits for it beside the jobs, nothing of it is verified. */
        TRAFFIC(false, false);

        private final boolean endsPhase;
        private final boolean checkedAtEnd;

        Role(boolean endsPhase, boolean checkedAtEnd) {
            this.endsPhase = endsPhase;
            this.checkedAtEnd = checkedAtEnd;
        }

        /** Workers, MoE and multicast sources end a phase; servers, experts and receivers serve them. */
        public boolean endsPhase() {
            return endsPhase;
        }

        /**
         * Under congestion control its {@code pace} is a DCQCN rate (a schedule member's per peer, a
         * multicast source's), not an AIMD window (an INA, PS or MoE endpoint's).
         */
        public boolean pacedByRate() {
            return this == RING_WORKER || this == MULTICAST_SOURCE;
        }

        /** Its data is checked when the phase ends, though it does not end it. */
        public boolean checkedAtEnd() {
            return checkedAtEnd;
        }
    }

    public record PartialChunk(long seq, List<String> missing) {}

    /**
     * The report of an AllReduce-style endpoint from its per-chunk results: which chunks hold
     * fewer contributions than {@code all} (and who is missing), how many verified.
     */
    public static DriverReport ofChunks(
            String endpoint,
            Role role,
            BitSpace space,
            EndpointSet all,
            EndpointSet[] holds,
            boolean[] verified,
            int received,
            List<String> mismatches,
            long lastVt,
            boolean done) {
        return ofChunks(
                endpoint, role, space, all, holds, verified, null, received, mismatches, lastVt, done, Map.of());
    }

    /**
     * @param all     what a complete chunk holds, or null when results have no provenance to name the missing by
     * @param expects the chunks this endpoint waits for, or null for every chunk
     */
    public static DriverReport ofChunks(
            String endpoint,
            Role role,
            BitSpace space,
            EndpointSet all,
            EndpointSet[] holds,
            boolean[] verified,
            boolean[] expects,
            int received,
            List<String> problems,
            long lastVt,
            boolean done,
            Map<String, Long> stats) {
        List<PartialChunk> partial = new ArrayList<>();
        int ok = 0;
        int chunks = 0;
        for (int c = 0; c < holds.length; c++) {
            if (expects != null && !expects[c]) {
                continue;
            }
            chunks++;
            if (holds[c] != null && all != null && !holds[c].equals(all)) {
                partial.add(new PartialChunk(c, space.names(all.andNot(holds[c]))));
            }
            if (verified[c]) {
                ok++;
            }
        }
        return of(endpoint, role)
                .chunks(chunks)
                .received(received)
                .partialChunks(partial)
                .mismatches(List.copyOf(problems))
                .lastVt(lastVt)
                .verifiedChunks(ok)
                .done(done)
                .stats(stats)
                .build();
    }
}
