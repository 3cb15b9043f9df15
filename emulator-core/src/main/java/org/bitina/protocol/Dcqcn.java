package org.bitina.protocol;

/**
 * DCQCN's reaction point for one flow (Zhu et al., SIGCOMM 2015), as a pure state machine in
 * modelled time: the sender's rate falls when a congestion notification (CNP) comes back and
 * recovers on a timer. It follows the reaction point of HPCC's ns-3 RoCE model ({@code RdmaHw},
 * the "Mellanox" variant: timer-driven increase, no byte counter), event by event:
 *
 * <ul>
 *   <li><b>First CNP</b>: {@code alpha = 1}; the alpha timer (every {@link Settings#alphaNanos()})
 *       and the decrease check (every {@link Settings#decreaseNanos()}, first one 1 ns late) start.
 *   <li><b>Alpha timer</b>: {@code alpha = (1 - g) alpha + g} if a CNP came since the last one,
 *       else {@code (1 - g) alpha}.
 *   <li><b>Decrease check</b>, if a CNP came since the last one: the target rate takes the current
 *       rate (unless this is the first cut since an increase and targets are not clamped), the rate
 *       becomes {@code max(minRate, rate (1 - alpha / 2))}, and the increase timer restarts at stage 0.
 *   <li><b>Increase timer</b> (every {@link Settings#increaseNanos()}): below stage
 *       {@link Settings#fastRecovery()} the rate goes half way back to the target (fast recovery); at
 *       it the target gains {@link Settings#rateAiBps()} (additive increase), above it
 *       {@link Settings#rateHaiBps()} (hyper increase), capped at the line rate, and the rate goes half
 *       way to it.
 * </ul>
 *
 * <p>Timers are evaluated lazily: {@link #advance} runs every event due by a time in order, so the
 * machine gives the same rates whenever it is asked, as long as times asked never go back. On a tie
 * the increase runs before the decrease check (ns-3 runs equal times in the order they were
 * scheduled, and the increase was scheduled a whole timer earlier). Rates are whole bits per second,
 * truncated as ns-3's {@code DataRate} is.
 */
public final class Dcqcn {

    /**
     * The parameters of DCQCN: the switches' RED marking ({@code kmin}, {@code kmax}, {@code pmax}),
     * the notification point's CNP spacing and the reaction point's rate machine.
     *
     * @param kminBytes       below this queue depth nothing is marked
     * @param kmaxBytes       above it every packet is; in between with probability rising to {@code pmax}
     * @param pmax            the marking probability just below {@code kmax}
     * @param cnpNanos        a receiver sends at most one CNP per flow per this interval
     * @param g               the EWMA gain of alpha
     * @param alphaNanos      the alpha timer's period
     * @param decreaseNanos   the decrease check's period (at most one cut per period)
     * @param increaseNanos   the increase timer's period
     * @param fastRecovery    increase events of fast recovery before additive increase
     * @param rateAiBps       the target's step in additive increase
     * @param rateHaiBps      the target's step in hyper increase
     * @param minRateBps      the rate never falls below this
     * @param rateOnFirstCnp  the fraction of its rate a flow keeps at its first CNP
     * @param clampTarget     whether every cut sets the target to the current rate (not only after an increase)
     */
    public record Settings(
            long kminBytes,
            long kmaxBytes,
            double pmax,
            long cnpNanos,
            double g,
            long alphaNanos,
            long decreaseNanos,
            long increaseNanos,
            int fastRecovery,
            long rateAiBps,
            long rateHaiBps,
            long minRateBps,
            double rateOnFirstCnp,
            boolean clampTarget) {

        /**
         * The defaults: RED at 5 KiB / 200 KiB / 1 % as the DCQCN paper runs its switches, one CNP per
         * 50 us per flow (its notification point), and the reaction point's attribute defaults of HPCC's
         * ns-3 {@code RdmaHw}.
         */
        public static final Settings DEFAULTS = new Settings(
                5 * 1024,
                200 * 1024,
                0.01,
                50_000,
                1.0 / 16,
                55_000,
                4_000,
                1_500_000,
                5,
                5_000_000,
                50_000_000,
                100_000_000,
                1.0,
                false);

        public Settings {
            if (kminBytes < 0 || kmaxBytes < kminBytes || !(pmax > 0 && pmax <= 1)) {
                throw new IllegalArgumentException("RED needs 0 <= kmin <= kmax and 0 < pmax <= 1, got " + kminBytes
                        + ", " + kmaxBytes + ", " + pmax);
            }
            if (cnpNanos < 0 || !(g > 0 && g <= 1) || alphaNanos <= 0 || decreaseNanos <= 0 || increaseNanos <= 0) {
                throw new IllegalArgumentException("DCQCN's gain must be in (0, 1] and its timers positive");
            }
            if (fastRecovery < 0 || rateAiBps < 0 || rateHaiBps < 0 || minRateBps <= 0) {
                throw new IllegalArgumentException("DCQCN's steps must not be negative and its minimum rate positive");
            }
            if (!(rateOnFirstCnp > 0 && rateOnFirstCnp <= 1)) {
                throw new IllegalArgumentException("rate on first CNP must be in (0, 1], got " + rateOnFirstCnp);
            }
        }
    }

    private static final long NEVER = Long.MAX_VALUE;

    private final Settings s;
    private final long lineBps;
    private long rate;
    private long target;
    private double alpha = 1;
    private int stage;
    private boolean first = true;
    private boolean cnpForAlpha;
    private boolean cnpForDecrease;
    private long alphaAt = NEVER;
    private long decreaseAt = NEVER;
    private long increaseAt = NEVER;

    private long cnps;
    private long cuts;
    private long lowest;

    /** A flow starting at its NIC's line rate {@code lineBps}, as RoCE's do. */
    public Dcqcn(Settings settings, long lineBps) {
        if (lineBps <= 0) {
            throw new IllegalArgumentException("line rate must be positive, got " + lineBps);
        }
        this.s = settings;
        this.lineBps = lineBps;
        this.rate = lineBps;
        this.target = lineBps;
        this.lowest = lineBps;
    }

    /** A CNP for this flow arrived at {@code now}. */
    public void cnp(long now) {
        advance(now);
        cnps++;
        cnpForAlpha = true;
        cnpForDecrease = true;
        if (first) {
            first = false;
            alpha = 1;
            cnpForAlpha = false;
            alphaAt = now + s.alphaNanos();
            decreaseAt = now + s.decreaseNanos() + 1;
            rate = (long) (s.rateOnFirstCnp() * rate);
            target = rate;
            lowest = Math.min(lowest, rate);
        }
    }

    /** The rate at {@code now}, in bits per second, after every timer due by then. */
    public long rateAt(long now) {
        advance(now);
        return rate;
    }

    /** Runs every timer event due at or before {@code now}, in order. */
    public void advance(long now) {
        while (true) {
            long t = Math.min(Math.min(alphaAt, decreaseAt), increaseAt);
            if (t > now) {
                return;
            }
            if (increaseAt == t) {
                increaseAt = t + s.increaseNanos();
                increase();
            } else if (alphaAt == t) {
                alphaAt = t + s.alphaNanos();
                alpha = cnpForAlpha ? (1 - s.g()) * alpha + s.g() : (1 - s.g()) * alpha;
                cnpForAlpha = false;
            } else if (cnpForDecrease) {
                decreaseAt = t + s.decreaseNanos();
                decrease(t);
            } else {
                // checks with no CNP since the last one do nothing: skip to the first after now
                decreaseAt = t + ((now - t) / s.decreaseNanos() + 1) * s.decreaseNanos();
            }
        }
    }

    private void decrease(long t) {
        if (s.clampTarget() || stage != 0) {
            target = rate;
        }
        rate = Math.max(s.minRateBps(), (long) (rate * (1 - alpha / 2)));
        lowest = Math.min(lowest, rate);
        cuts++;
        stage = 0;
        cnpForDecrease = false;
        increaseAt = t + s.increaseNanos();
    }

    private void increase() {
        if (stage == s.fastRecovery()) {
            target = Math.min(lineBps, target + s.rateAiBps());
        } else if (stage > s.fastRecovery()) {
            target = Math.min(lineBps, target + s.rateHaiBps());
        }
        rate = rate / 2 + target / 2;
        stage++;
    }

    /** The target rate (the rate fast recovery returns to). */
    public long target() {
        return target;
    }

    public double alpha() {
        return alpha;
    }

    /** CNPs taken. */
    public long cnps() {
        return cnps;
    }

    /** Rate cuts made (at most one per decrease period, however many CNPs came). */
    public long cuts() {
        return cuts;
    }

    /** The lowest rate this flow ran at. */
    public long lowestBps() {
        return lowest;
    }
}
