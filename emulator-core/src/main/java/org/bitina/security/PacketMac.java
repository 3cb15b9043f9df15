package org.bitina.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;

/**
 * S2, the authentication of INA packets (seed 000 section 8): each job has its own key,
 * derived from the run's secret with HKDF-SHA256 (RFC 5869; info = the tenant and job), and
 * a packet's 16-byte tag is HMAC-SHA256 over its header as encoded and its payload's SHA-256
 * digest ({@link org.bitina.wire.Payload#digest}), truncated (RFC 2104 section 5): "a MAC over the
 * headers and a payload digest" (seed 000 section 8). The digest is taken once where the payload
 * is made, so signing at the host and checking at the first switch each hash the header and 32
 * bytes, not the payload twice; a payload changed on the way has another digest, and the tag
 * fails. One instance per device: it keeps an initialised MAC per key.
 */
public final class PacketMac {
    public static final int KEY_BYTES = 32;
    /** By key array: a job's tables hold one key array, so identity finds it without hashing the key. */
    private final Map<byte[], Mac> macs = new IdentityHashMap<>();

    /** The key of job {@code (tenant, job)} of a run with {@code runSecret}. */
    public static byte[] jobKey(byte[] runSecret, int tenant, int job) {
        byte[] info = ("bitina ina job " + tenant + "/" + job).getBytes(StandardCharsets.US_ASCII);
        return Hkdf.sha256(null, runSecret, info, KEY_BYTES);
    }

    /** {@code p} with its tag under {@code key}. */
    public InaPacket sign(byte[] key, InaPacket p) {
        return p.withAuthTag(tag(key, p));
    }

    /** Whether {@code p} carries the tag {@code key} gives it (false without a tag). */
    public boolean verify(byte[] key, InaPacket p) {
        return p.authTag() != null && MessageDigest.isEqual(p.authTag(), tag(key, p));
    }

    /** Where a header is encoded to be MACed: one buffer per device, grown to the largest header (no garbage per packet). */
    private ByteBuffer buf = ByteBuffer.allocate(1024);

    private byte[] tag(byte[] key, InaPacket p) {
        Mac mac = macs.computeIfAbsent(key, PacketMac::init);
        InaPacket bare = p.withAuthTag(null); // the header as it was signed: without the tag's flag
        if (Flags.ecnCapable(bare.header().type()) && bare.header().has(Flags.CE)) {
            // a switch on the way may have marked it: CE is not the sender's to vouch for
            bare = bare.withHeader(bare.header().withFlags(bare.header().flags() & ~Flags.CE));
        }
        int size = PacketCodec.headerBytes(bare);
        if (buf.capacity() < size) {
            buf = ByteBuffer.allocate(size);
        }
        buf.clear();
        PacketCodec.encodeHeader(bare, buf);
        buf.flip();
        mac.update(buf);
        mac.update(p.payload().digest());
        return Arrays.copyOf(mac.doFinal(), InaPacket.AUTH_TAG_BYTES);
    }

    private static Mac init(byte[] key) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }
}
