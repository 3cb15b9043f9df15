package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Issue 14.6: the member's gate takes the first vouched claim and then only its token. */
class CommandGateTest {
    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    @Test
    void onlyAVouchedClaimBindsAndThenOnlyItsTokenCommands() {
        CommandGate<String> g = new CommandGate<>();
        assertFalse(g.authorizes(b(1)), "nothing before a claim is vouched");
        assertTrue(g.claim(b(10), b(1), "forged"));
        assertTrue(g.claim(b(11), b(2), "genuine"));
        assertNull(g.vouched(b(10), false), "the issuer did not give that token");
        assertNull(g.vouched(b(99), true), "an answer to no check");
        assertEquals("genuine", g.vouched(b(11), true));
        assertTrue(g.authorizes(b(2)));
        assertFalse(g.authorizes(b(1)));
        assertFalse(g.authorizes(null));
        assertFalse(g.claim(b(12), b(2), "again"), "one run per member");
        assertNull(g.vouched(b(11), true), "an answer is used once");
    }

    @Test
    void claimsUnderCheckAreBoundedAndExpire() {
        CommandGate<Integer> g = new CommandGate<>();
        for (int i = 0; i < CommandGate.MAX_CLAIMS; i++) {
            assertTrue(g.claim(b(i, 0), b(1), i));
        }
        assertFalse(g.claim(b(255, 255), b(1), -1));
        assertTrue(g.expire(b(0, 0)));
        assertFalse(g.expire(b(0, 0)));
        assertTrue(g.claim(b(255, 255), b(1), -1));
        assertEquals(2, g.refuse() + g.refuse() - 1);
    }
}
