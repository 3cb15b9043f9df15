package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** S4's per-source limit, in modelled time. */
class TokenBucketTest {

    @Test
    void aBurstPassesThenOnePacketPerRefillInterval() {
        TokenBucket b = new TokenBucket(1_000_000, 4); // one packet a microsecond, four at once
        int passed = 0;
        for (int i = 0; i < 10; i++) {
            passed += b.take(0) ? 1 : 0;
        }
        assertEquals(4, passed, "the burst, at one instant");
        assertFalse(b.take(999), "less than a microsecond later: no token yet");
        assertTrue(b.take(1_000));
        assertFalse(b.take(1_000));
        // a long pause refills no more than the burst
        passed = 0;
        for (int i = 0; i < 10; i++) {
            passed += b.take(1_000_000_000L) ? 1 : 0;
        }
        assertEquals(4, passed);
    }

    @Test
    void overAnyIntervalNoMoreThanBurstPlusRateTimesItsLengthPass() {
        TokenBucket b = new TokenBucket(2_000_000, 64);
        SplittableRandom r = new SplittableRandom(7);
        long t = 0;
        int passed = 0;
        for (int i = 0; i < 100_000; i++) {
            t += r.nextInt(200); // about 10 M packets a second offered
            passed += b.take(t) ? 1 : 0;
        }
        long bound = 64 + (long) Math.ceil(2e6 * t * 1e-9);
        assertTrue(passed <= bound, passed + " passed, bound " + bound);
        assertTrue(
                passed >= bound - 64 - 1,
                "an offered load above the rate gets the whole rate: " + passed + " of " + bound);
    }

    @Test
    void timeThatGoesBackRefillsNothing() {
        TokenBucket b = new TokenBucket(1_000_000, 1);
        assertTrue(b.take(5_000));
        assertFalse(b.take(1_000));
        assertFalse(b.take(5_000));
        assertTrue(b.take(6_000));
    }
}
