package org.bitina.usecase;

import java.util.Arrays;

/**
 * When each unit of an endpoint's work (a chunk, a token, a window) got its first result, in
 * modelled nanoseconds: the data of the report's per-unit completion-time distribution. A later,
 * better result of the same unit (a late contribution folded in) does not move its time.
 */
public final class CompletionTimes {
    private final long[] vt;

    public CompletionTimes(int units) {
        vt = new long[units];
        Arrays.fill(vt, -1);
    }

    /** Unit {@code unit} has a result at modelled time {@code at}; only its first counts. */
    public void done(long unit, long at) {
        if (unit >= 0 && unit < vt.length && vt[(int) unit] < 0) {
            vt[(int) unit] = at;
        }
    }

    /** A copy: per unit its first result's time, -1 where none came. */
    public long[] toArray() {
        return vt.clone();
    }
}
