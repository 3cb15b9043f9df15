package org.bitina.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bitina.job.RecoverySettings;
import org.junit.jupiter.api.Test;

/** The one retransmission rule (issue 42 item 4): RFC 6298's doubling, its cap and sends, and what a job's settings change. */
class RecoveryPolicyTest {
    @Test
    void theWaitDoublesAtEachSendUpToItsCap() {
        RecoveryPolicy p = RecoveryPolicy.doubling(1_000, 6, 10, RecoverySettings.NONE);
        assertEquals(1_000, p.after(1));
        assertEquals(2_000, p.after(2));
        assertEquals(32_000, p.after(6));
        assertEquals(64_000, p.after(7), "six doublings");
        assertEquals(64_000, p.after(10), "and no more");
        // the shifts the drivers wrote before: rto << min(6, n - 1)
        for (int n = 1; n <= 12; n++) {
            assertEquals(1_000L << Math.min(6, n - 1), p.after(n), "send " + n);
        }
        assertEquals(1_000 + 2_000 + 4_000 + 8_000 + 16_000 + 32_000 + 4 * 64_000, p.horizonNanos());
        assertTrue(!p.exhausted(9) && p.exhausted(10));
    }

    @Test
    void aJobsSettingsBoundTheTimeoutAndSetTheSends() {
        RecoverySettings floor = new RecoverySettings(5_000, 0, 0);
        RecoveryPolicy p = RecoveryPolicy.capped(1_000, 3_000, 16, floor);
        assertEquals(5_000, p.after(1), "rto-min raises the first timeout");
        assertEquals(5_000, p.after(5), "and the cap with it");
        assertEquals(16, p.maxSends());
        RecoveryPolicy q = RecoveryPolicy.capped(1_000, 64_000, 16, new RecoverySettings(0, 4_000, 3));
        assertEquals(4_000, q.after(3), "rto-max caps the backoff");
        assertEquals(4_000, q.after(10));
        assertEquals(3, q.maxSends());
        RecoveryPolicy r = RecoveryPolicy.capped(9_000, 64_000, 16, new RecoverySettings(0, 4_000, 0));
        assertEquals(4_000, r.after(1), "the first timeout is at most rto-max");
        assertThrows(IllegalArgumentException.class, () -> new RecoverySettings(5, 4, 0));
        assertThrows(IllegalArgumentException.class, () -> new RecoveryPolicy(0, 1, 1));
    }
}
