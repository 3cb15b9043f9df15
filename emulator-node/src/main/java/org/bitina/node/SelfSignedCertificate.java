package org.bitina.node;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A self-signed X.509 v3 certificate (RFC 5280) for an EC key, signed SHA256withECDSA, written in
 * DER by hand: the JDK reads certificates but has no public API to make one. Bouncy Castle did it
 * before; its signed jars cost every run a signature check when Pekko read the jars' manifests at
 * start (about a tenth of a small run's process time), for credentials only multi-JVM runs make.
 * No extensions: the run's one certificate is both its members' key and their only trust anchor.
 */
final class SelfSignedCertificate {
    /** ecdsa-with-SHA256 (RFC 5758 section 3.2), without parameters. */
    private static final byte[] ECDSA_SHA256 = {0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x04, 0x03, 0x02};
    /** id-at-commonName (2.5.4.3). */
    private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};

    private static final int INTEGER = 0x02;
    private static final int BIT_STRING = 0x03;
    private static final int OID = 0x06;
    private static final int UTF8_STRING = 0x0c;
    private static final int UTC_TIME = 0x17;
    private static final int GENERALIZED_TIME = 0x18;
    private static final int SEQUENCE = 0x30;
    private static final int SET = 0x31;
    private static final int EXPLICIT_0 = 0xa0;

    private SelfSignedCertificate() {}

    /** A certificate for {@code keys} named {@code CN=commonName}, valid from {@code notBefore} to {@code notAfter}. */
    static X509Certificate of(KeyPair keys, String commonName, BigInteger serial, Instant notBefore, Instant notAfter)
            throws GeneralSecurityException {
        byte[] algorithm = tlv(SEQUENCE, tlv(OID, ECDSA_SHA256));
        byte[] name = tlv(
                SEQUENCE,
                tlv(
                        SET,
                        tlv(
                                SEQUENCE,
                                tlv(OID, COMMON_NAME),
                                tlv(UTF8_STRING, commonName.getBytes(StandardCharsets.UTF_8)))));
        byte[] tbs = tlv(
                SEQUENCE,
                tlv(EXPLICIT_0, tlv(INTEGER, new byte[] {2})), // v3
                tlv(INTEGER, serial.toByteArray()),
                algorithm,
                name,
                tlv(SEQUENCE, time(notBefore), time(notAfter)),
                name,
                keys.getPublic().getEncoded()); // SubjectPublicKeyInfo, DER already
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(keys.getPrivate());
        s.update(tbs);
        byte[] cert = tlv(SEQUENCE, tbs, algorithm, bitString(s.sign()));
        X509Certificate parsed = (X509Certificate)
                CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(cert));
        parsed.verify(keys.getPublic()); // what every member will check: made right, or not at all
        return parsed;
    }

    /** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 section 4.1.2.5), to the second. */
    private static byte[] time(Instant t) {
        ZonedDateTime z = t.atZone(ZoneOffset.UTC);
        boolean utc = z.getYear() < 2050;
        String text = z.format(DateTimeFormatter.ofPattern(utc ? "yyMMddHHmmss'Z'" : "yyyyMMddHHmmss'Z'"));
        return tlv(utc ? UTC_TIME : GENERALIZED_TIME, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] bitString(byte[] bits) {
        byte[] v = new byte[bits.length + 1]; // no unused bits
        System.arraycopy(bits, 0, v, 1, bits.length);
        return tlv(BIT_STRING, v);
    }

    /** One DER element: tag, definite length (short or long form), the parts' bytes. */
    private static byte[] tlv(int tag, byte[]... parts) {
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            value.writeBytes(p);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = value.size();
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(value.toByteArray());
        return out.toByteArray();
    }
}
