package org.bitina.security;

import java.util.Collection;
import java.util.function.ToIntFunction;
import org.bitina.job.Mode;

/**
 * Admission control at job setup (seed 000 section 8; docs/requirements.md S5): a job declares the soft
 * state its INA mode holds at once on a switch (aggregation entries, from its senders'
 * windows); every switch it would install tables on must have room, or the job is not
 * admitted and runs its host baseline instead. An admitted job's declaration becomes its
 * quota on each of those switches, so a job cannot take more than it reserved.
 *
 * @param admitted  whether every switch has room
 * @param entries   what the job declared per switch
 * @param refusedBy the first switch (in the order given) without room, or null
 * @param capacity  that switch's capacity
 * @param fallback  the host baseline the job runs instead (when refused)
 */
public record Admission(boolean admitted, int entries, String refusedBy, int capacity, Mode fallback) {

    /**
     * @param switches the switches the job installs tables on, in a stable order
     * @param capacity a switch's capacity in entries; 0 or less: unlimited
     */
    public static Admission decide(
            int entries, Collection<String> switches, ToIntFunction<String> capacity, Mode fallback) {
        for (String s : switches) {
            int c = capacity.applyAsInt(s);
            if (c > 0 && entries > c) {
                return new Admission(false, entries, s, c, fallback);
            }
        }
        return new Admission(true, entries, null, 0, null);
    }

    /** Why the job was not admitted, for the report and the summary (null when it was). */
    public String reason() {
        return admitted
                ? null
                : "switch " + refusedBy + " has room for " + capacity + " aggregation entries; the job needs "
                        + entries;
    }
}
