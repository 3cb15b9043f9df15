package org.bitina.security;

/**
 * A token bucket (docs/requirements.md S4, the per-source rate limit): {@code burst} packets at once,
 * refilled at {@code perSecond} packets a second. Time is passed in: under the virtual clock
 * it is modelled time, so the same arrivals are policed the same way at any load and on any
 * number of JVMs.
 */
public final class TokenBucket {
    private final double perNano;
    private final double burst;
    private double tokens;
    private long last = Long.MIN_VALUE;

    public TokenBucket(long perSecond, int burst) {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("a token bucket needs a positive rate and burst");
        }
        this.perNano = perSecond / 1e9;
        this.burst = burst;
        this.tokens = burst;
    }

    /** Whether a packet arriving at {@code now} (nanoseconds) may pass; takes its token when it does. */
    public boolean take(long now) {
        if (last != Long.MIN_VALUE && now > last) {
            tokens = Math.min(burst, tokens + (now - last) * perNano);
        }
        last = Math.max(last, now);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }
}
