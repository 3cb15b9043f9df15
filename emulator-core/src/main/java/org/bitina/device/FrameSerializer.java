package org.bitina.device;

import java.io.NotSerializableException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.bitina.protocol.Frame;
import org.bitina.wire.InaPacket;
import org.bitina.wire.MalformedPacketException;
import org.bitina.wire.PacketCodec;

/**
 * Data-plane frames cross JVMs in the project's own binary wire format (docs/reference.md): a small
 * envelope (sender, underlay destination, modelled time, via) followed by the INA packet as
 * {@link PacketCodec} writes it, so the header format is exercised for real. Bound to
 * {@link DeviceCommand.FrameIn} in application.conf; hostile bytes are refused with
 * {@link NotSerializableException}, never anything else.
 */
public final class FrameSerializer extends SerializerWithStringManifest implements ByteBufferSerializer {
    /** Serializer id; Pekko reserves 0-40. */
    public static final int ID = 8279;

    private static final String FRAME_IN = "F1";
    private static final String BATCH = "B1";
    /** A batch is what one device sends one neighbour in one turn; more than this is hostile. */
    private static final int MAX_BATCH = 1 << 16;

    @Override
    public int identifier() {
        return ID;
    }

    @Override
    public String manifest(Object o) {
        if (o instanceof DeviceCommand.FrameIn) {
            return FRAME_IN;
        }
        if (o instanceof DeviceCommand.FrameBatch) {
            return BATCH;
        }
        throw new IllegalArgumentException(
                "FrameSerializer cannot serialize " + o.getClass().getName());
    }

    @Override
    public byte[] toBinary(Object o) {
        ByteBuffer buf = ByteBuffer.allocate(size(o));
        toBinary(o, buf);
        return buf.array();
    }

    /** Straight into Artery's envelope buffer: no intermediate copies of the packet bytes. */
    @Override
    public void toBinary(Object o, ByteBuffer buf) {
        // Artery's buffer is little-endian and must stay so; the frames are big-endian (network order)
        ByteOrder order = buf.order();
        buf.order(ByteOrder.BIG_ENDIAN);
        try {
            if (o instanceof DeviceCommand.FrameBatch b) {
                buf.putInt(b.frames().size());
                for (DeviceCommand.FrameIn m : b.frames()) {
                    write(m, buf);
                }
            } else {
                write((DeviceCommand.FrameIn) o, buf);
            }
        } finally {
            buf.order(order);
        }
    }

    /** Exact serialized size of a frame or a batch. */
    public static int size(Object o) {
        if (o instanceof DeviceCommand.FrameBatch b) {
            int n = 4;
            for (DeviceCommand.FrameIn m : b.frames()) {
                n += size(m);
            }
            return n;
        }
        DeviceCommand.FrameIn m = (DeviceCommand.FrameIn) o;
        Frame f = m.frame();
        return utf(m.from())
                + 1
                + (f.destination() == null ? 0 : utf(f.destination()))
                + 8
                + 1
                + (f.via() == null ? 0 : utf(f.via()))
                + 4
                + PacketCodec.encodedSize(f.packet());
    }

    /** The bytes {@link #putString} writes for {@code s}. */
    public static int utf(String s) {
        return 2 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** One frame's envelope and packet, big-endian (what {@link #read} takes back); also written inside other messages. */
    public static void write(DeviceCommand.FrameIn m, ByteBuffer buf) {
        Frame f = m.frame();
        putString(buf, m.from());
        putOptional(buf, f.destination());
        buf.putLong(f.vt());
        putOptional(buf, f.via());
        buf.putInt(PacketCodec.encodedSize(f.packet()));
        PacketCodec.encode(f.packet(), buf);
    }

    public static void putString(ByteBuffer buf, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        buf.putShort((short) b.length);
        buf.put(b);
    }

    private static void putOptional(ByteBuffer buf, String s) {
        buf.put((byte) (s != null ? 1 : 0));
        if (s != null) {
            putString(buf, s);
        }
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        return fromBinary(ByteBuffer.wrap(bytes), manifest);
    }

    @Override
    public Object fromBinary(ByteBuffer buf, String manifest) throws NotSerializableException {
        if (!FRAME_IN.equals(manifest) && !BATCH.equals(manifest)) {
            throw new NotSerializableException("unknown frame manifest '" + manifest + "'");
        }
        ByteBuffer in = buf.slice().order(ByteOrder.BIG_ENDIAN);
        try {
            Object out;
            if (BATCH.equals(manifest)) {
                int n = in.getInt();
                if (n < 1 || n > MAX_BATCH) {
                    throw new NotSerializableException("a batch of " + n + " frames");
                }
                List<DeviceCommand.FrameIn> frames = new ArrayList<>(Math.min(n, 64));
                for (int i = 0; i < n; i++) {
                    frames.add(read(in));
                }
                out = new DeviceCommand.FrameBatch(List.copyOf(frames));
            } else {
                out = read(in);
            }
            if (in.hasRemaining()) {
                throw new NotSerializableException(in.remaining() + " bytes after the frames");
            }
            buf.position(buf.position() + in.position());
            return out;
        } catch (MalformedPacketException e) {
            throw new NotSerializableException("malformed INA packet: " + e.getMessage());
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new NotSerializableException("truncated frame envelope: " + e);
        }
    }

    /** One frame as {@link #write} put it; hostile bytes are refused. */
    public static DeviceCommand.FrameIn read(ByteBuffer in) throws NotSerializableException, MalformedPacketException {
        String from = getString(in);
        String destination = in.get() != 0 ? getString(in) : null;
        long vt = in.getLong();
        String via = in.get() != 0 ? getString(in) : null;
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new NotSerializableException("frame says " + length + " packet bytes, " + in.remaining() + " follow");
        }
        ByteBuffer packet = in.slice();
        packet.limit(length);
        InaPacket p = PacketCodec.decode(packet);
        in.position(in.position() + length);
        return new DeviceCommand.FrameIn(new Frame(p, destination, vt, via), from);
    }

    public static String getString(ByteBuffer in) throws NotSerializableException {
        int n = in.getShort() & 0xFFFF;
        if (n > in.remaining()) {
            throw new NotSerializableException("a name of " + n + " bytes, " + in.remaining() + " follow");
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
