package org.bitina.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.bitina.bitmap.Encoding;
import org.junit.jupiter.api.Test;

/** Which encoding a link carries (H2, seed 000 section 7): the one rule the wire and the MTU check share. */
class EncodingSpecTest {
    private static final EncodingSpec NODE_LIST = new EncodingSpec(Encoding.NODE_LIST, 1);
    private static final EncodingSpec TRANSLATED = new EncodingSpec(Encoding.HIERARCHICAL, 16, NODE_LIST);

    @Test
    void aTranslatingJobCarriesTheHostsEncodingOnAHostsLinkBothWays() {
        assertEquals(NODE_LIST, TRANSLATED.onLink(true, false), "host to its edge switch");
        assertEquals(NODE_LIST, TRANSLATED.onLink(false, true), "edge switch down to a host");
        assertEquals(NODE_LIST, TRANSLATED.onLink(true, true), "host to host");
        assertEquals(TRANSLATED, TRANSLATED.onLink(false, false), "switch to switch: the fabric's");
    }

    @Test
    void aJobThatDoesNotTranslateCarriesOneEncodingOnEveryLink() {
        EncodingSpec one = new EncodingSpec(Encoding.HIERARCHICAL, 16);
        assertEquals(one, one.onLink(true, false));
        assertEquals(one, one.onLink(false, true));
        assertEquals(one, one.onLink(false, false));
    }
}
