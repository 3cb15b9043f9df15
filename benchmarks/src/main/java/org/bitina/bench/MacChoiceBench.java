package org.bitina.bench;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.security.PacketMac;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 31, target 4: what a tag over one 4 KiB INA packet costs with the MAC bitina uses (HMAC-SHA256
 * through {@link PacketMac}, the encode included) beside the JDK's other standard MACs over the same
 * bytes, each with an initialised instance reused, as a device would: the primitive alone (HMAC-SHA256),
 * the CBC pass that is AES-CMAC's (RFC 4493) whole cost, AES-GMAC (GCM with the packet as additional
 * data; it needs a fresh nonce per packet, set here) and ChaCha20-Poly1305 the same way.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
public class MacChoiceBench {
    private static final int CHUNK_FLOATS = 1000; // P1's chunk in LimitsBench: a 4056-byte packet before its tag

    private final PacketMac packetMac = new PacketMac();
    private final byte[] key = new byte[PacketMac.KEY_BYTES];
    private InaPacket packet;
    private byte[] bytes;
    private byte[] blocks;
    private byte[] out;
    private byte[] nonce = new byte[12];
    private Mac hmac;
    private Cipher cbc;
    private Cipher gcm;
    private Cipher chacha;
    private SecretKeySpec aes;
    private SecretKeySpec chachaKey;
    private long counter;

    @Setup
    public void setup() throws GeneralSecurityException {
        float[] values = new float[CHUNK_FLOATS];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f;
        }
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 42)
                .withOp(ReductionOp.SUM)
                .withSource(3);
        packet = new InaPacket(h, FlatBitmap.of(128, 0, 1, 2, 3), Payload.of(values));
        bytes = PacketCodec.encode(packet);
        blocks = new byte[(bytes.length + 15) / 16 * 16];
        System.arraycopy(bytes, 0, blocks, 0, bytes.length);
        out = new byte[blocks.length + 16];
        hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(key, "HmacSHA256"));
        aes = new SecretKeySpec(key, 0, 16, "AES");
        cbc = Cipher.getInstance("AES/CBC/NoPadding");
        cbc.init(Cipher.ENCRYPT_MODE, aes, new IvParameterSpec(new byte[16]));
        gcm = Cipher.getInstance("AES/GCM/NoPadding");
        chacha = Cipher.getInstance("ChaCha20-Poly1305");
        chachaKey = new SecretKeySpec(key, "ChaCha20");
    }

    /** What a host pays per packet today: encode without the tag, HMAC-SHA256, truncate, attach. */
    @Benchmark
    public InaPacket packetMacSign() {
        return packetMac.sign(key, packet);
    }

    @Benchmark
    public byte[] hmacSha256() {
        hmac.update(bytes);
        return hmac.doFinal();
    }

    @Benchmark
    public int aesCbcPassOfCmac() throws GeneralSecurityException {
        return cbc.doFinal(blocks, 0, blocks.length, out, 0);
    }

    @Benchmark
    public byte[] aesGmac() throws GeneralSecurityException {
        ByteBuffer.wrap(nonce).putLong(4, ++counter);
        gcm.init(Cipher.ENCRYPT_MODE, aes, new GCMParameterSpec(128, nonce));
        gcm.updateAAD(bytes);
        return gcm.doFinal();
    }

    @Benchmark
    public byte[] chacha20Poly1305() throws GeneralSecurityException {
        ByteBuffer.wrap(nonce).putLong(4, ++counter);
        chacha.init(Cipher.ENCRYPT_MODE, chachaKey, new IvParameterSpec(nonce));
        chacha.updateAAD(bytes);
        return chacha.doFinal();
    }
}
