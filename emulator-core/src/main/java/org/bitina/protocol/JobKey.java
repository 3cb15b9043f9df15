package org.bitina.protocol;

import org.bitina.wire.InaHeader;

/** A job as the data plane names it: tenant and job id (S1: state of two jobs never mixes). */
public record JobKey(int tenant, int job) {
    public static JobKey of(InaHeader h) {
        return new JobKey(h.tenant(), h.job());
    }

    public static JobKey of(StateKey k) {
        return new JobKey(k.tenant(), k.job());
    }

    /** The inverse of {@link #toString()}. */
    public static JobKey parse(String s) {
        int slash = s.indexOf("/j");
        if (!s.startsWith("t") || slash < 0) {
            throw new IllegalArgumentException("not a job key: " + s);
        }
        return new JobKey(Integer.parseInt(s.substring(1, slash)), Integer.parseInt(s.substring(slash + 2)));
    }

    @Override
    public String toString() {
        return "t" + tenant + "/j" + job;
    }
}
