package org.bitina.scenario;

/**
 * The seeds of one draw of a repeated run ({@code --repeat N}, {@code repeat { runs = N }}):
 * every seed of the file (data, gating, traffic arrivals, the links' loss draws) is moved to
 * another stream per draw, and draw 0 is the file's own seeds, so a run without repetitions is
 * the run it always was.
 */
public final class Seeds {
    /** The link generators' seed when no draw moves it. */
    public static final long LINKS = 1;

    private Seeds() {}

    /** {@code seed} in draw {@code draw}: itself for draw 0, else an unrelated stream (SplitMix64's finaliser). */
    public static long forDraw(long seed, int draw) {
        if (draw == 0) {
            return seed;
        }
        long z = seed + draw * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
