package org.bitina.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.junit.jupiter.api.Test;

class PacketCodecTest {

    private static InaPacket sample(EndpointSet set, Payload payload) {
        InaHeader h = new InaHeader(
                1,
                PacketType.CONTRIBUTION,
                Flags.PARTIAL | Flags.LAST,
                ReductionOp.SUM,
                0xBEEF,
                0x01020304,
                0x0A0B0C0D0E0F1011L,
                3,
                -1,
                0x12345678);
        return new InaPacket(h, set, payload);
    }

    @Test
    void headerFieldsLandAtTheirDocumentedOffsets() throws Exception {
        InaPacket p = sample(EndpointSets.parse("[01100110]"), Payload.of(new float[] {1.5f}));
        byte[] b = PacketCodec.encode(p);
        assertEquals(PacketCodec.HEADER_BYTES + 1 + 4, b.length);
        assertEquals((byte) 0b0001_0_000, b[0], "version 1, direction aggregation, encoding flat");
        assertEquals((byte) 1, b[1], "packet type CONTRIBUTION");
        assertEquals((byte) 0b0000_1001, b[2], "flags PARTIAL|LAST");
        assertEquals((byte) 0b0001_0001, b[3], "element float32, op sum");
        assertArrayEquals(new byte[] {(byte) 0xBE, (byte) 0xEF}, Arrays.copyOfRange(b, 4, 6), "tenant");
        assertArrayEquals(new byte[] {0, 0}, Arrays.copyOfRange(b, 6, 8), "set parameter of a flat bitmap");
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Arrays.copyOfRange(b, 8, 12), "job id");
        assertArrayEquals(
                new byte[] {0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11},
                Arrays.copyOfRange(b, 12, 20),
                "sequence id");
        assertArrayEquals(new byte[] {0, 0, 0, 3}, Arrays.copyOfRange(b, 20, 24), "source");
        assertArrayEquals(new byte[] {-1, -1, -1, -1}, Arrays.copyOfRange(b, 24, 28), "destination none");
        assertArrayEquals(new byte[] {0, 0, 0, 8}, Arrays.copyOfRange(b, 28, 32), "capacity");
        assertArrayEquals(new byte[] {0x12, 0x34, 0x56, 0x78}, Arrays.copyOfRange(b, 32, 36), "entropy");
        assertArrayEquals(new byte[] {0, 0, 0, 1}, Arrays.copyOfRange(b, 36, 40), "element count");
        assertEquals((byte) 0b0110_0110, b[40], "bitmap MSB first, bit 1 leftmost");
        assertEquals(Float.floatToIntBits(1.5f), ByteBuffer.wrap(b, 41, 4).getInt());
        assertEquals(p, PacketCodec.decode(b));
    }

    @Test
    void multicastDirectionBitIsSet() {
        InaPacket p = new InaPacket(InaHeader.of(PacketType.RESULT, 1, 1, 0), FlatBitmap.of(8), Payload.EMPTY);
        assertEquals((byte) 0b0001_1_000, PacketCodec.encode(p)[0]);
    }

    @Test
    void hierarchicalBodyIsUpperBitmapThenSelectedBlocks() throws Exception {
        // 10 endpoints in blocks of 4: blocks 0 and 2 selected; block 2 is short (2 bits)
        EndpointSet set = FlatBitmap.of(10, 1, 9).toHierarchical(4);
        InaPacket p = sample(set, Payload.EMPTY).withHeader(InaHeader.of(PacketType.ACK, 0, 1, 7));
        byte[] b = PacketCodec.encode(p);
        assertEquals((byte) 0b0001_0_001, b[0], "encoding hierarchical");
        assertArrayEquals(new byte[] {0, 4}, Arrays.copyOfRange(b, 6, 8), "block size");
        // upper 101, block0 0100, block2 0100 -> 1010 1000 1000 0000
        assertArrayEquals(new byte[] {(byte) 0b1010_1000, (byte) 0b1000_0000}, Arrays.copyOfRange(b, 40, 42));
        assertEquals(42, b.length);
        assertEquals(p, PacketCodec.decode(b));
    }

    @Test
    void nodeListBodyIsPackedIndices() throws Exception {
        EndpointSet set = FlatBitmap.of(8, 1, 2, 5, 6).toNodeList();
        InaPacket p = sample(set, Payload.EMPTY).withHeader(InaHeader.of(PacketType.DISPATCH, 0, 1, 7));
        byte[] b = PacketCodec.encode(p);
        assertEquals((byte) 0b0001_1_010, b[0], "multicast, node list");
        assertArrayEquals(new byte[] {0, 4}, Arrays.copyOfRange(b, 6, 8), "four listed endpoints");
        // 3-bit indices 001 010 101 110 -> 0010 1010 1110 0000
        assertArrayEquals(new byte[] {(byte) 0b0010_1010, (byte) 0b1110_0000}, Arrays.copyOfRange(b, 40, 42));
        assertEquals(p, PacketCodec.decode(b));
    }

    @Test
    void roundTripsEveryFieldEncodingPayloadAndTag() throws Exception {
        byte[] tag = new byte[16];
        Arrays.fill(tag, (byte) 0x5A);
        for (Encoding e : Encoding.values()) {
            for (Payload payload : new Payload[] {
                Payload.EMPTY,
                Payload.of(new float[] {-0.0f, Float.NaN, 3e38f}),
                Payload.of(new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE})
            }) {
                for (PacketType type : PacketType.values()) {
                    InaHeader h = new InaHeader(
                            1,
                            type,
                            Flags.RETRANSMIT | Flags.LATE,
                            ReductionOp.MAX,
                            65535,
                            -5,
                            Long.MIN_VALUE,
                            0,
                            1_000_000,
                            -1);
                    InaPacket p =
                            new InaPacket(h, FlatBitmap.of(200, 0, 63, 64, 199).to(e, 50), payload, tag);
                    byte[] bytes = PacketCodec.encode(p);
                    assertEquals(PacketCodec.encodedSize(p), bytes.length);
                    InaPacket back = PacketCodec.decode(bytes);
                    assertEquals(p, back);
                    assertTrue(back.header().has(Flags.AUTH));
                    assertEquals(e, back.endpoints().encoding());
                }
            }
        }
    }

    @Test
    void provenanceFollowsTheSetAsAFlatBitmapWithItsOwnCapacity() throws Exception {
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 3).withFlags(Flags.PARTIAL);
        InaPacket p = new InaPacket(h, EndpointSets.parse("[11110000]"), Payload.of(new float[] {2f}))
                .withProvenance(EndpointSets.parse("[11100000]"));
        byte[] b = PacketCodec.encode(p);
        assertEquals((byte) (Flags.PARTIAL | Flags.PROVENANCE), b[2]);
        assertEquals((byte) 0b1111_0000, b[40]);
        assertEquals(8, ByteBuffer.wrap(b, 41, 4).getInt(), "provenance capacity right after the set");
        assertEquals((byte) 0b1110_0000, b[45], "then the provenance bits");
        assertEquals(PacketCodec.HEADER_BYTES + 1 + 4 + 1, PacketCodec.headerBytes(p));
        InaPacket back = PacketCodec.decode(b);
        assertEquals(p, back);
        assertEquals(EndpointSets.parse("[11100000]"), back.holds());
        byte[] beyond = PacketCodec.encode(
                new InaPacket(h, FlatBitmap.of(6, 0), Payload.EMPTY).withProvenance(FlatBitmap.of(6, 0)));
        beyond[45] = (byte) 0b1000_0010;
        rejects(beyond, "non-zero bits beyond the end");
        beyond[44] = 0;
        rejects(beyond, "provenance capacity 0");
        // B6: the set names 2 edge BFRs, the provenance 12 endpoints behind them
        InaPacket edge = new InaPacket(h, EndpointSets.parse("[11]"), Payload.EMPTY)
                .withProvenance(EndpointSets.parse("[111011110000]"));
        assertEquals(edge, PacketCodec.decode(PacketCodec.encode(edge)));
    }

    @Test
    void decodesFromABufferPositionAndAdvancesIt() throws Exception {
        InaPacket p = sample(FlatBitmap.of(8, 0), Payload.EMPTY);
        byte[] body = PacketCodec.encode(p);
        ByteBuffer buf = ByteBuffer.allocate(body.length + 3);
        buf.position(3);
        buf.put(body);
        buf.position(3);
        assertEquals(p, PacketCodec.decode(buf));
        assertEquals(buf.limit(), buf.position());
    }

    // ------------------------------------------------------------ every rejected input

    private static byte[] valid() {
        return PacketCodec.encode(sample(EndpointSets.parse("[01100110]"), Payload.of(new float[] {1f, 2f})));
    }

    private static void rejects(byte[] bytes, String fragment) {
        MalformedPacketException e = assertThrows(MalformedPacketException.class, () -> PacketCodec.decode(bytes));
        assertTrue(
                e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' should mention '" + fragment + "'");
    }

    @Test
    void rejectsTruncatedHeader() {
        rejects(Arrays.copyOf(valid(), 39), "truncated");
        rejects(new byte[0], "truncated");
    }

    @Test
    void rejectsTruncatedPayload() {
        byte[] b = valid();
        rejects(Arrays.copyOf(b, b.length - 1), "length mismatch");
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] b = valid();
        rejects(Arrays.copyOf(b, b.length + 4), "length mismatch");
    }

    @Test
    void rejectsWrongVersion() {
        byte[] b = valid();
        b[0] = (byte) (0b0010_0000 | (b[0] & 0x0F));
        rejects(b, "unsupported version 2");
    }

    @Test
    void rejectsUnknownEncoding() {
        byte[] b = valid();
        b[0] = (byte) ((b[0] & 0xF8) | 0b111);
        rejects(b, "unknown endpoint-set encoding 7");
    }

    @Test
    void rejectsUnknownPacketType() {
        byte[] b = valid();
        b[1] = (byte) 0xEE;
        rejects(b, "unknown packet type 238");
    }

    @Test
    void rejectsDirectionThatContradictsTheType() {
        byte[] b = valid();
        b[0] = (byte) (b[0] | 0b0000_1000);
        rejects(b, "direction bit says MULTICAST");
    }

    @Test
    void rejectsUnknownFlags() {
        byte[] b = valid();
        b[2] = (byte) 0x80;
        rejects(b, "unknown flag bits 0x80");
    }

    @Test
    void rejectsUnknownElementTypeAndOp() {
        byte[] b = valid();
        b[3] = (byte) 0x31;
        rejects(b, "unknown element type 3");
        b[3] = (byte) 0x1F;
        rejects(b, "unknown reduction op 15");
    }

    @Test
    void rejectsElementsWithoutAnElementType() {
        byte[] b = valid();
        b[3] = (byte) 0x01;
        rejects(b, "with no element type");
    }

    @Test
    void rejectsCountThatLies() {
        byte[] b = valid();
        ByteBuffer.wrap(b).putInt(36, 3);
        rejects(b, "length mismatch");
        ByteBuffer.wrap(b).putInt(36, -1);
        rejects(b, "length mismatch");
    }

    @Test
    void rejectsCapacityOutOfRange() {
        byte[] b = valid();
        ByteBuffer.wrap(b).putInt(28, 0);
        rejects(b, "set capacity 0");
        ByteBuffer.wrap(b).putInt(28, EndpointSet.MAX_CAPACITY + 1);
        rejects(b, "set capacity");
        ByteBuffer.wrap(b).putInt(28, -1);
        rejects(b, "set capacity 4294967295");
    }

    @Test
    void rejectsCapacityLargerThanTheBytesPresent() {
        byte[] b = valid();
        ByteBuffer.wrap(b).putInt(28, 4096);
        rejects(b, "truncated endpoint set");
    }

    @Test
    void rejectsFlatBitsBeyondTheBitSpace() {
        byte[] b = PacketCodec.encode(sample(FlatBitmap.of(6, 0), Payload.EMPTY));
        b[40] = (byte) 0b1000_0010;
        rejects(b, "non-zero bits beyond the end");
    }

    @Test
    void rejectsFlatWithNonZeroSetParameter() {
        byte[] b = valid();
        b[7] = 1;
        rejects(b, "flat bitmap with non-zero set parameter");
    }

    @Test
    void rejectsHierarchicalDefects() {
        byte[] good = PacketCodec.encode(sample(FlatBitmap.of(10, 1, 9).toHierarchical(4), Payload.EMPTY));
        byte[] zeroBlock = good.clone();
        zeroBlock[7] = 0;
        rejects(zeroBlock, "block size 0");
        byte[] emptyBlock = good.clone();
        emptyBlock[40] = (byte) 0b1010_0000; // block 0 selected with lower bits 0000
        emptyBlock[41] = (byte) 0b0100_0000;
        rejects(emptyBlock, "selected but empty");
        byte[] beyond = good.clone();
        beyond[41] = (byte) 0b1010_0000; // block 2 has index 10, beyond 10 endpoints
        rejects(beyond, "beyond the bit space");
        byte[] emptyLast = good.clone();
        emptyLast[40] = (byte) 0b1110_1000; // selects block 1 too: block 2 then reads as 0000
        rejects(emptyLast, "selected but empty");
        // 40 endpoints in 5 blocks of 8, one selected: 5 + 8 bits in 2 bytes
        byte[] small = PacketCodec.encode(sample(FlatBitmap.of(40, 1).toHierarchical(8), Payload.EMPTY));
        small[40] = (byte) (small[40] | 0b1111_1000); // claims all five blocks: 45 bits
        rejects(small, "truncated endpoint set");
    }

    @Test
    void rejectsNodeListDefects() {
        byte[] good = PacketCodec.encode(sample(FlatBitmap.of(6, 1, 4).toNodeList(), Payload.EMPTY));
        // 3-bit indices 001 100 -> 0011 0000
        assertEquals((byte) 0b0011_0000, good[40]);
        byte[] beyond = good.clone();
        beyond[40] = (byte) 0b0011_1000; // 001 110 = 6, beyond 6 endpoints
        rejects(beyond, "beyond the bit space");
        byte[] unsorted = good.clone();
        unsorted[40] = (byte) 0b1000_0100; // 100 001
        rejects(unsorted, "not strictly ascending");
        byte[] dup = good.clone();
        dup[40] = (byte) 0b0010_0100; // 001 001
        rejects(dup, "not strictly ascending");
        byte[] lies = good.clone();
        lies[7] = 9; // nine entries of three bits do not fit in one byte
        rejects(lies, "truncated endpoint set");
        byte[] padding = good.clone();
        padding[40] = (byte) 0b0011_0001;
        rejects(padding, "non-zero bits beyond the end");
    }

    @Test
    void rejectsBadEndpointFields() {
        byte[] b = valid();
        ByteBuffer.wrap(b).putInt(20, -7);
        rejects(b, "endpoint fields");
    }

    @Test
    void rejectsMissingAuthTag() {
        byte[] b = valid();
        b[2] = (byte) (b[2] | Flags.AUTH);
        rejects(b, "length mismatch");
    }
}
