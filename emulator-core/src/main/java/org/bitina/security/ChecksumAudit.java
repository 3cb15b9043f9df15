package org.bitina.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * S6, naming a switch that corrupts sums. The controller (trusted, holding the job's checksum key
 * and so the coefficients r) audits what crosses each switch port: every contribution and result
 * of a checksummed job must keep the checksum invariant ({@link LinearChecksum}), which honest
 * switches keep because the checksum is linear and which a switch without r cannot forge. The
 * audit is modelled as a tap on every switch ingress port that the controller owns (as a port
 * mirror feeding it would be): it checks each packet as it arrives and keeps only the failures,
 * (sender, chunk, direction). The switch's data plane never reads the key.
 *
 * <p>A corrupted sum fails on every link after the corruption, so the suspect of a chunk is the
 * sender of a failing packet that itself received no failing packet of that chunk: the first link
 * whose packet fails. Contributions travel before results, so a chunk's contribution links are
 * judged first and its result links only when every contribution passed (a corrupting root).
 *
 * <p>What the audit cannot tell: a receiving switch that lies about what it received could name
 * an honest child (binding what a switch sends needs per-hop tags, not built); a sender whose
 * change keeps the invariant by chance passes (see {@link LinearChecksum}).
 */
public final class ChecksumAudit {
    private final LinearChecksum checksum;
    private final List<Failure> failures = new ArrayList<>();

    /** A packet that broke the invariant: who sent it, its chunk, and whether it was a result (going down) or a contribution. */
    public record Failure(String from, long chunk, boolean result) {}

    public ChecksumAudit(byte[] checksumKey) {
        this.checksum = new LinearChecksum(checksumKey);
    }

    /** Checks one packet's int32 payload (data then checksum words) from neighbour {@code from}. */
    public boolean check(String from, long chunk, int[] payload, boolean result) {
        if (checksum.holds(chunk, payload)) {
            return true;
        }
        failures.add(new Failure(from, chunk, result));
        return false;
    }

    public List<Failure> failures() {
        return List.copyOf(failures);
    }

    /**
     * The suspects of a phase from every tap's failures (receiver to its failures), by the rule
     * above; sorted, each once.
     */
    public static List<String> suspects(Map<String, List<Failure>> byReceiver) {
        // chunk -> direction (false: contributions) -> sender -> receivers it failed at
        Map<Long, Map<Boolean, Map<String, Set<String>>>> links = new TreeMap<>();
        byReceiver.forEach((receiver, fs) -> fs.forEach(f -> links.computeIfAbsent(f.chunk(), c -> new TreeMap<>())
                .computeIfAbsent(f.result(), d -> new TreeMap<>())
                .computeIfAbsent(f.from(), s -> new TreeSet<>())
                .add(receiver)));
        Set<String> suspects = new TreeSet<>();
        for (Map<Boolean, Map<String, Set<String>>> chunk : links.values()) {
            Map<String, Set<String>> first = chunk.containsKey(false) ? chunk.get(false) : chunk.get(true);
            Set<String> receivedBad = new TreeSet<>();
            first.values().forEach(receivedBad::addAll);
            for (String sender : first.keySet()) {
                if (!receivedBad.contains(sender)) {
                    suspects.add(sender);
                }
            }
        }
        return List.copyOf(suspects);
    }
}
