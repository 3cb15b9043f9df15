package org.bitina.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.FlatBitmap;
import org.junit.jupiter.api.Test;

/**
 * Hostile bytes: a decoder may accept a mutated packet (then it must re-encode to the same
 * bytes) or throw {@link MalformedPacketException}; any other exception fails the test.
 */
class PacketCodecFuzzTest {
    private static final int RANDOM_INPUTS = 100_000;
    private static final int MUTATED_INPUTS = 250_000;

    private static List<byte[]> corpus(SplittableRandom rnd) {
        List<byte[]> seeds = new ArrayList<>();
        for (Encoding e : Encoding.values()) {
            for (PacketType t : PacketType.values()) {
                int cap = 1 + rnd.nextInt(300);
                int[] members = rnd.ints(rnd.nextInt(Math.min(cap, 20) + 1), 0, cap)
                        .distinct()
                        .sorted()
                        .toArray();
                Payload payload = switch (rnd.nextInt(3)) {
                    case 0 -> Payload.EMPTY;
                    case 1 -> Payload.of(new float[rnd.nextInt(16)]);
                    default -> Payload.of(new int[rnd.nextInt(16)]);
                };
                InaHeader h = new InaHeader(
                        1,
                        t,
                        rnd.nextInt(2) == 0 ? 0 : Flags.PARTIAL,
                        ReductionOp.SUM,
                        rnd.nextInt(65536),
                        rnd.nextInt(),
                        rnd.nextLong(),
                        -1,
                        rnd.nextInt(100),
                        0);
                seeds.add(PacketCodec.encode(new InaPacket(
                        h,
                        FlatBitmap.of(cap, members).to(e, 1 + rnd.nextInt(40)),
                        payload,
                        rnd.nextBoolean() ? new byte[16] : null)));
            }
        }
        return seeds;
    }

    private static int decodeOrReject(byte[] input) {
        try {
            InaPacket p = PacketCodec.decode(input);
            // anything accepted must be exactly what the codec itself would write
            assertEquals(input.length, PacketCodec.encodedSize(p));
            assertTrue(Arrays.equals(input, PacketCodec.encode(p)), "accepted bytes re-encode differently");
            return 1;
        } catch (MalformedPacketException expected) {
            return 0;
        } catch (RuntimeException | Error e) {
            fail("decoder threw " + e + " on " + HexFormat.of().formatHex(input), e);
            return -1;
        }
    }

    @Test
    void randomBytesOnlyEverThrowMalformedPacketException() {
        SplittableRandom rnd = new SplittableRandom(20261129);
        for (int i = 0; i < RANDOM_INPUTS; i++) {
            byte[] b = new byte[rnd.nextInt(120)];
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) rnd.nextInt(256);
            }
            // make some look like version 1 so that decoding goes past the first check
            if (b.length > 0 && rnd.nextBoolean()) {
                b[0] = (byte) (0x10 | (b[0] & 0x0F));
            }
            decodeOrReject(b);
        }
    }

    @Test
    void mutatedPacketsOnlyEverThrowMalformedPacketException() {
        SplittableRandom rnd = new SplittableRandom(8279);
        List<byte[]> seeds = corpus(rnd);
        int accepted = 0;
        for (int i = 0; i < MUTATED_INPUTS; i++) {
            byte[] b = seeds.get(rnd.nextInt(seeds.size())).clone();
            switch (rnd.nextInt(4)) {
                case 0 -> { // flip bits
                    int flips = 1 + rnd.nextInt(4);
                    for (int f = 0; f < flips; f++) {
                        int pos = rnd.nextInt(b.length);
                        b[pos] ^= (byte) (1 << rnd.nextInt(8));
                    }
                }
                case 1 -> b = Arrays.copyOf(b, rnd.nextInt(b.length + 1)); // truncate
                case 2 -> b = Arrays.copyOf(b, b.length + 1 + rnd.nextInt(16)); // extend
                default -> { // overwrite a length-like field with a lie
                    int[] fields = {6, 28, 36};
                    int off = fields[rnd.nextInt(fields.length)];
                    ByteBuffer.wrap(b).putShort(off + (off == 6 ? 0 : 2), (short) rnd.nextInt(65536));
                }
            }
            accepted += decodeOrReject(b);
        }
        // bit flips in ids and payload are legitimate packets: the fuzzer must reach the accept path too
        assertTrue(accepted > 0 && accepted < MUTATED_INPUTS, "accepted " + accepted);
    }
}
