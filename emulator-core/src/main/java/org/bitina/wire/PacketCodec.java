package org.bitina.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.bitmap.HierarchicalBitmap;
import org.bitina.bitmap.NodeList;

/**
 * Binary codec of the INA packet (requirement H1). All fields are big-endian.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version|D| Enc |  Packet type  |     Flags     | Elem  |  Op   |  0
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Tenant id           |         Set parameter         |  4
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             Job id                            |  8
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Sequence / chunk / token id (64)              | 12
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Source endpoint (-1 = none)                  | 20
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               Destination endpoint (-1 = none)                | 24
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Set capacity N (bits of the job's bit space)  | 28
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               Entropy (BIER-INC communicator id)              | 32
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Payload element count                     | 36
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Endpoint set body (bit-packed, MSB first) ...        | 40
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Provenance capacity M (32 bits, when flag PROVENANCE)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Provenance (flat, M bits, when flag PROVENANCE) ...       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Payload (count x 4 bytes, float32 or int32) ...      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Authentication tag (16 bytes, when flag AUTH)        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Set parameter: 0 for a flat bitmap, the block size b for a hierarchical bitmap, the
 * number of listed endpoints K for a node list. Set body: flat, N bits (index 0 is the
 * first, most significant bit); hierarchical, the B-bit upper bitmap followed by b bits
 * for each selected block; node list, K indices of ceil(log2 N) bits, strictly
 * ascending. The body is padded with zero bits to a whole byte. There is no length field:
 * the packet's length must equal exactly what the header and the set imply.
 */
public final class PacketCodec {
    public static final int HEADER_BYTES = 40;

    private static final int OFF_TENANT = 4;
    private static final int OFF_SET_PARAM = 6;
    private static final int OFF_JOB = 8;
    private static final int OFF_SEQ = 12;
    private static final int OFF_SOURCE = 20;
    private static final int OFF_DEST = 24;
    private static final int OFF_CAPACITY = 28;
    private static final int OFF_ENTROPY = 32;
    private static final int OFF_COUNT = 36;

    private PacketCodec() {}

    /** Exact size in bytes of the endpoint-set body. */
    public static int setBodyBytes(EndpointSet set) {
        return (int) ((set.encodedBits() + 7) >>> 3);
    }

    /** Header bytes of this packet: the fixed header plus the endpoint-set body (H3). */
    public static int headerBytes(InaPacket p) {
        return HEADER_BYTES
                + setBodyBytes(p.endpoints())
                + (p.provenance() != null ? provenanceBytes(p.provenance().capacity()) : 0);
    }

    /** Bytes of a provenance of {@code capacity} bits: its 32-bit capacity and the flat bitmap. */
    public static int provenanceBytes(int capacity) {
        return 4 + (capacity + 7) / 8;
    }

    /** Exact encoded size in bytes. */
    public static int encodedSize(InaPacket p) {
        return headerBytes(p) + p.payload().byteSize() + (p.authTag() != null ? InaPacket.AUTH_TAG_BYTES : 0);
    }

    public static byte[] encode(InaPacket p) {
        ByteBuffer buf = ByteBuffer.allocate(encodedSize(p));
        encode(p, buf);
        return buf.array();
    }

    /** Writes {@code p} at the buffer's position and advances it. */
    public static void encode(InaPacket p, ByteBuffer buf) {
        encodeHeader(p, buf);
        Payload payload = p.payload();
        if (payload instanceof Payload.Float32 f) {
            putFloats(f.values(), buf);
        } else if (payload instanceof Payload.Int32 i) {
            putInts(i.values(), buf);
        }
        if (p.authTag() != null) {
            buf.put(p.authTag());
        }
    }

    /**
     * Writes {@code p}'s header ({@link #headerBytes}: the fixed fields, the endpoint set and the
     * provenance) at the buffer's position and advances it: what the S2 tag covers beside the
     * payload's digest.
     */
    public static void encodeHeader(InaPacket p, ByteBuffer buf) {
        buf.order(ByteOrder.BIG_ENDIAN);
        InaHeader h = p.header();
        EndpointSet set = p.endpoints();
        Payload payload = p.payload();
        buf.put((byte) ((h.version() << 4)
                | (h.direction().wireValue() << 3)
                | set.encoding().wireValue()));
        buf.put((byte) h.type().wireValue());
        buf.put((byte) h.flags());
        buf.put((byte) ((payload.elementType().wireValue() << 4) | h.op().wireValue()));
        buf.putShort((short) h.tenant());
        buf.putShort((short) setParameter(set));
        buf.putInt(h.job());
        buf.putLong(h.seq());
        buf.putInt(h.source());
        buf.putInt(h.destination());
        buf.putInt(set.capacity());
        buf.putInt(h.entropy());
        buf.putInt(payload.elements());
        writeSet(set, buf);
        if (p.provenance() != null) {
            buf.putInt(p.provenance().capacity());
            writeSet(p.provenance().toFlat(), buf);
        }
    }

    /**
     * SHA-256 of the payload's elements as the codec writes them (big-endian) ({@link Payload#digest}),
     * through a small block: a payload-sized array per digest cost more than the hash (allocation
     * dominated the profile).
     */
    static byte[] digest(Payload payload) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java 17 runtime", e);
        }
        float[] floats = payload instanceof Payload.Float32 f ? f.values() : null;
        int[] ints = payload instanceof Payload.Int32 i ? i.values() : null;
        byte[] block = new byte[512];
        int at = 0;
        for (int k = 0; k < payload.elements(); k++) {
            if (floats != null) {
                FLOAT_BE.set(block, at, floats[k]);
            } else {
                INT_BE.set(block, at, ints[k]);
            }
            at += 4;
            if (at == block.length) {
                md.update(block, 0, at);
                at = 0;
            }
        }
        md.update(block, 0, at);
        return md.digest();
    }

    /** Big-endian views of a byte array: the same bytes as the buffer's {@code putFloat}/{@code putInt}. */
    private static final VarHandle FLOAT_BE = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);

    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /**
     * The payload's floats at the buffer's position. Into a heap buffer's array by a compiled loop: the bulk put
     * through a big-endian view swaps in the JVM's generic copy loop, as slow as the HMAC over the same bytes
     * (issue 31's MAC profile); any other buffer by that view.
     */
    private static void putFloats(float[] v, ByteBuffer buf) {
        int pos = buf.position();
        if (buf.hasArray()) {
            if (buf.remaining() < 4 * v.length) {
                throw new BufferOverflowException();
            }
            byte[] a = buf.array();
            int at = buf.arrayOffset() + pos;
            for (int k = 0; k < v.length; k++) {
                FLOAT_BE.set(a, at + 4 * k, v[k]);
            }
        } else {
            buf.asFloatBuffer().put(v);
        }
        buf.position(pos + 4 * v.length);
    }

    /** As {@link #putFloats}, for int32 values. */
    private static void putInts(int[] v, ByteBuffer buf) {
        int pos = buf.position();
        if (buf.hasArray()) {
            if (buf.remaining() < 4 * v.length) {
                throw new BufferOverflowException();
            }
            byte[] a = buf.array();
            int at = buf.arrayOffset() + pos;
            for (int k = 0; k < v.length; k++) {
                INT_BE.set(a, at + 4 * k, v[k]);
            }
        } else {
            buf.asIntBuffer().put(v);
        }
        buf.position(pos + 4 * v.length);
    }

    private static int setParameter(EndpointSet set) {
        return switch (set.encoding()) {
            case FLAT -> 0;
            case HIERARCHICAL -> ((HierarchicalBitmap) set).blockSize();
            case NODE_LIST -> {
                if (set.cardinality() > 0xFFFF) {
                    throw new IllegalArgumentException("a node list on the wire holds at most 65535 endpoints");
                }
                yield set.cardinality();
            }
        };
    }

    private static void writeSet(EndpointSet set, ByteBuffer buf) {
        BitWriter w = new BitWriter(buf);
        switch (set.encoding()) {
            case FLAT -> {
                // whole bytes straight from the words (index 8b at the byte's top bit), the tail bit by bit
                FlatBitmap f = (FlatBitmap) set;
                int whole = f.capacity() >>> 3;
                byte[] bytes = new byte[whole];
                for (int b = 0; b < whole; b++) {
                    bytes[b] = (byte) (Integer.reverse((int) (f.word(b >>> 3) >>> ((b & 7) << 3)) & 0xFF) >>> 24);
                }
                buf.put(bytes);
                writeBits(w, set, whole << 3, set.capacity());
            }
            case HIERARCHICAL -> {
                HierarchicalBitmap h = (HierarchicalBitmap) set;
                for (int k = 0; k < h.blockCount(); k++) {
                    w.write(h.blockSelected(k) ? 1 : 0, 1);
                }
                for (int k = 0; k < h.blockCount(); k++) {
                    if (h.blockSelected(k)) {
                        int base = k * h.blockSize();
                        // the last block may be short: pad its lower bitmap with zeros
                        writeBits(w, h, base, base + h.blockSize());
                    }
                }
            }
            case NODE_LIST -> {
                int bits = NodeList.indexBits(set.capacity());
                for (int i = set.nextSetBit(0); i >= 0; i = set.nextSetBit(i + 1)) {
                    w.write(i, bits);
                }
            }
        }
        w.flush();
    }

    private static void writeBits(BitWriter w, EndpointSet set, int from, int to) {
        int next = set.nextSetBit(from);
        for (int i = from; i < to; i++) {
            if (i == next) {
                w.write(1, 1);
                next = set.nextSetBit(i + 1);
            } else {
                w.write(0, 1);
            }
        }
    }

    public static InaPacket decode(byte[] bytes) throws MalformedPacketException {
        return decode(ByteBuffer.wrap(bytes));
    }

    /**
     * Decodes one packet from the buffer's remaining bytes, all of which must belong to it.
     * Any defect throws {@link MalformedPacketException} and nothing else.
     */
    public static InaPacket decode(ByteBuffer in) throws MalformedPacketException {
        ByteBuffer buf = in.slice().order(ByteOrder.BIG_ENDIAN);
        int total = buf.remaining();
        if (total < HEADER_BYTES) {
            throw new MalformedPacketException("truncated: " + total + " bytes, the header alone is " + HEADER_BYTES);
        }
        int b0 = buf.get(0) & 0xFF;
        int version = b0 >>> 4;
        if (version != InaHeader.CURRENT_VERSION) {
            throw new MalformedPacketException(
                    "unsupported version " + version + " (this codec speaks " + InaHeader.CURRENT_VERSION + ")");
        }
        Direction direction = lookup(() -> Direction.fromWire((b0 >>> 3) & 1));
        Encoding encoding = lookup(() -> Encoding.fromWire(b0 & 0x7));
        PacketType type = lookup(() -> PacketType.fromWire(buf.get(1) & 0xFF));
        if (type.direction() != direction) {
            throw new MalformedPacketException(
                    "direction bit says " + direction + " but a " + type + " travels " + type.direction());
        }
        int flags = buf.get(2) & 0xFF;
        if ((flags & ~Flags.KNOWN) != 0) {
            throw new MalformedPacketException("unknown flag bits 0x" + Integer.toHexString(flags & ~Flags.KNOWN));
        }
        int b3 = buf.get(3) & 0xFF;
        ElementType elementType = lookup(() -> ElementType.fromWire(b3 >>> 4));
        ReductionOp op = lookup(() -> ReductionOp.fromWire(b3 & 0xF));
        int tenant = buf.getShort(OFF_TENANT) & 0xFFFF;
        int setParam = buf.getShort(OFF_SET_PARAM) & 0xFFFF;
        int job = buf.getInt(OFF_JOB);
        long seq = buf.getLong(OFF_SEQ);
        int source = buf.getInt(OFF_SOURCE);
        int destination = buf.getInt(OFF_DEST);
        if (source < -1 || destination < -1) {
            throw new MalformedPacketException(
                    "endpoint fields must be an index or -1: source " + source + ", destination " + destination);
        }
        int capacity = buf.getInt(OFF_CAPACITY);
        if (capacity < 1 || capacity > EndpointSet.MAX_CAPACITY) {
            throw new MalformedPacketException(
                    "set capacity " + Integer.toUnsignedString(capacity) + " outside 1.." + EndpointSet.MAX_CAPACITY);
        }
        int entropy = buf.getInt(OFF_ENTROPY);
        long count = Integer.toUnsignedLong(buf.getInt(OFF_COUNT));
        if (elementType == ElementType.NONE && count != 0) {
            throw new MalformedPacketException("payload element count " + count + " with no element type");
        }

        buf.position(HEADER_BYTES);
        EndpointSet set = readSet(buf, encoding, capacity, setParam);
        EndpointSet provenance = null;
        if ((flags & Flags.PROVENANCE) != 0) {
            if (buf.remaining() < 4) {
                throw new MalformedPacketException("provenance flag set but no room for its capacity");
            }
            int m = buf.getInt();
            if (m < 1 || m > EndpointSet.MAX_CAPACITY) {
                throw new MalformedPacketException("provenance capacity " + Integer.toUnsignedString(m) + " outside 1.."
                        + EndpointSet.MAX_CAPACITY);
            }
            provenance = readSet(buf, Encoding.FLAT, m, 0);
        }

        long payloadBytes = count * elementType.bytes();
        int tagBytes = (flags & Flags.AUTH) != 0 ? InaPacket.AUTH_TAG_BYTES : 0;
        long expected = (long) buf.position() + payloadBytes + tagBytes;
        if (expected != total) {
            throw new MalformedPacketException(
                    "length mismatch: header and set imply " + expected + " bytes, got " + total);
        }
        Payload payload = switch (elementType) {
            case NONE -> Payload.EMPTY;
            case FLOAT32 -> {
                float[] v = new float[(int) count];
                buf.order(ByteOrder.BIG_ENDIAN).asFloatBuffer().get(v);
                buf.position(buf.position() + 4 * v.length);
                yield Payload.of(v);
            }
            case INT32 -> {
                int[] v = new int[(int) count];
                buf.order(ByteOrder.BIG_ENDIAN).asIntBuffer().get(v);
                buf.position(buf.position() + 4 * v.length);
                yield Payload.of(v);
            }
        };
        byte[] tag = null;
        if (tagBytes > 0) {
            tag = new byte[tagBytes];
            buf.get(tag);
        }
        InaHeader header = new InaHeader(version, type, flags, op, tenant, job, seq, source, destination, entropy);
        in.position(in.position() + total);
        return new InaPacket(header, set, payload, provenance, tag);
    }

    private static EndpointSet readSet(ByteBuffer buf, Encoding encoding, int capacity, int param)
            throws MalformedPacketException {
        int start = buf.position();
        BitReader r = new BitReader(buf);
        EndpointSet set;
        switch (encoding) {
            case FLAT -> {
                if (param != 0) {
                    throw new MalformedPacketException("flat bitmap with non-zero set parameter " + param);
                }
                r.require(capacity);
                long[] words = new long[(capacity + 63) >>> 6];
                int whole = capacity >>> 3;
                for (int b = 0; b < whole; b++) {
                    long reversed = (Integer.reverse(buf.get(start + b) & 0xFF) >>> 24) & 0xFFL;
                    words[b >>> 3] |= reversed << ((b & 7) << 3);
                }
                r.skip((long) whole << 3);
                for (int i = whole << 3; i < capacity; i++) {
                    if (r.read(1) != 0) {
                        words[i >>> 6] |= 1L << (i & 63);
                    }
                }
                set = FlatBitmap.ofWords(capacity, words);
            }
            case HIERARCHICAL -> {
                if (param < 1) {
                    throw new MalformedPacketException("hierarchical bitmap with block size 0");
                }
                int blockCount = HierarchicalBitmap.blockCount(capacity, param);
                r.require(blockCount);
                boolean[] selected = new boolean[blockCount];
                int k = 0;
                for (int i = 0; i < blockCount; i++) {
                    selected[i] = r.read(1) != 0;
                    if (selected[i]) {
                        k++;
                    }
                }
                r.require((long) k * param);
                long[][] blocks = new long[blockCount][];
                int words = (param + 63) >>> 6;
                for (int i = 0; i < blockCount; i++) {
                    if (!selected[i]) {
                        continue;
                    }
                    blocks[i] = new long[words];
                    for (int j = 0; j < param; j++) {
                        if (r.read(1) != 0) {
                            blocks[i][j >>> 6] |= 1L << (j & 63);
                        }
                    }
                }
                try {
                    set = HierarchicalBitmap.ofBlocks(capacity, param, blocks);
                } catch (IllegalArgumentException e) {
                    throw new MalformedPacketException("hierarchical bitmap: " + e.getMessage());
                }
            }
            case NODE_LIST -> {
                int bits = NodeList.indexBits(capacity);
                r.require((long) param * bits);
                int[] members = new int[param];
                for (int i = 0; i < param; i++) {
                    members[i] = (int) r.read(bits);
                    if (members[i] >= capacity) {
                        throw new MalformedPacketException(
                                "node list names endpoint " + members[i] + " beyond the bit space of " + capacity);
                    }
                    if (i > 0 && members[i] <= members[i - 1]) {
                        throw new MalformedPacketException("node list is not strictly ascending at position " + i);
                    }
                }
                set = NodeList.ofSorted(capacity, members);
            }
            default -> throw new AssertionError(encoding);
        }
        if (r.paddingNonZero()) {
            throw new MalformedPacketException("non-zero bits beyond the end of the " + encoding + " set");
        }
        buf.position(start + r.bytesConsumed());
        return set;
    }

    private interface Lookup<T> {
        T get();
    }

    private static <T> T lookup(Lookup<T> l) throws MalformedPacketException {
        try {
            return l.get();
        } catch (IllegalArgumentException e) {
            throw new MalformedPacketException(e.getMessage());
        }
    }

    /** MSB-first bit writer over a byte buffer. */
    private static final class BitWriter {
        private final ByteBuffer buf;
        private int acc;
        private int used;

        BitWriter(ByteBuffer buf) {
            this.buf = buf;
        }

        void write(long value, int bits) {
            for (int i = bits - 1; i >= 0; i--) {
                acc = (acc << 1) | (int) ((value >>> i) & 1);
                if (++used == 8) {
                    buf.put((byte) acc);
                    acc = 0;
                    used = 0;
                }
            }
        }

        void flush() {
            if (used > 0) {
                buf.put((byte) (acc << (8 - used)));
                acc = 0;
                used = 0;
            }
        }
    }

    /** MSB-first bit reader that checks lengths before it allocates or reads. */
    private static final class BitReader {
        private final ByteBuffer buf;
        private final int start;
        private long bitPos;

        BitReader(ByteBuffer buf) {
            this.buf = buf;
            this.start = buf.position();
        }

        void require(long bits) throws MalformedPacketException {
            long available = (long) (buf.limit() - start) * 8 - bitPos;
            if (bits > available) {
                throw new MalformedPacketException(
                        "truncated endpoint set: needs " + bits + " more bits, " + available + " left");
            }
        }

        void skip(long bits) {
            bitPos += bits;
        }

        long read(int bits) {
            long v = 0;
            for (int i = 0; i < bits; i++) {
                int b = buf.get(start + (int) (bitPos >>> 3)) & 0xFF;
                v = (v << 1) | ((b >>> (7 - (bitPos & 7))) & 1);
                bitPos++;
            }
            return v;
        }

        int bytesConsumed() {
            return (int) ((bitPos + 7) >>> 3);
        }

        boolean paddingNonZero() {
            int rem = (int) (bitPos & 7);
            if (rem == 0) {
                return false;
            }
            int b = buf.get(start + (int) (bitPos >>> 3)) & 0xFF;
            return (b & (0xFF >>> rem)) != 0;
        }
    }
}
