package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** HKDF-SHA256 against RFC 5869's own test vectors (appendix A). */
class HkdfTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] ikm() {
        byte[] b = new byte[22];
        Arrays.fill(b, (byte) 0x0b);
        return b;
    }

    @Test
    void rfc5869TestCase1WithSaltAndInfo() {
        byte[] okm = Hkdf.sha256(
                HEX.parseHex("000102030405060708090a0b0c"), ikm(), HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
        assertEquals(
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
                HEX.formatHex(okm));
    }

    @Test
    void rfc5869TestCase3WithoutSaltOrInfo() {
        byte[] okm = Hkdf.sha256(null, ikm(), new byte[0], 42);
        assertEquals(
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
                HEX.formatHex(okm));
        assertArrayEquals(okm, Hkdf.sha256(new byte[0], ikm(), new byte[0], 42), "an empty salt is no salt");
    }

    @Test
    void aShorterOutputIsThePrefixOfALongerOne() {
        byte[] info = {1, 2, 3};
        assertArrayEquals(Arrays.copyOf(Hkdf.sha256(null, ikm(), info, 80), 16), Hkdf.sha256(null, ikm(), info, 16));
    }

    @Test
    void refusesMoreThan255Blocks() {
        assertThrows(IllegalArgumentException.class, () -> Hkdf.sha256(null, ikm(), new byte[0], 255 * 32 + 1));
    }
}
