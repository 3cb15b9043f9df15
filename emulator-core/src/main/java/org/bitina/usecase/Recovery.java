package org.bitina.usecase;

import java.util.HashMap;
import java.util.Map;

/**
 * What an endpoint's loss recovery did (L1), as it reports it in {@link DriverReport#stats()}: the
 * packets it sent again because an answer was overdue, and the modelled time it spent with at least
 * one of them unanswered (the time lost to recovery). The report sums the first over a phase's
 * endpoints and takes the longest of the second.
 */
public final class Recovery {
    /** Packets sent again (flag RETRANSMIT) because their answer was overdue. */
    public static final String RETRANSMISSIONS = "retransmissions";

    /** Modelled nanoseconds with a retransmitted packet still unanswered. */
    public static final String RECOVERY_NANOS = "recoveryNanos";

    private Recovery() {}

    public static Map<String, Long> stats(long retransmissions, long recoveryNanos) {
        return Map.of(RETRANSMISSIONS, retransmissions, RECOVERY_NANOS, recoveryNanos);
    }

    /** As above, with the rule the endpoint recovered by ({@link RecoveryPolicy#stats()}). */
    public static Map<String, Long> stats(long retransmissions, long recoveryNanos, RecoveryPolicy policy) {
        Map<String, Long> out = new HashMap<>(stats(retransmissions, recoveryNanos));
        out.putAll(policy.stats());
        return Map.copyOf(out);
    }
}
