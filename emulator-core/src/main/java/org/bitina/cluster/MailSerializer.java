package org.bitina.cluster;

import java.io.NotSerializableException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.bitina.device.DeviceCommand;
import org.bitina.device.FrameSerializer;
import org.bitina.device.MemberTally;
import org.bitina.wire.MalformedPacketException;

/**
 * A window's frames between two members ({@link MemberAgent.Frames}) in the project's binary
 * wire format: each frame as {@link FrameSerializer} writes it, so the INA header crosses
 * JVMs for real here too. Bound in application.conf; hostile bytes are refused with
 * {@link NotSerializableException}, never anything else.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  sending member's index (int32)               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       parcels (int32, P)                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * P times: | to: length (uint16) + UTF-8 | frames (int32, F) | F frames (FrameSerializer) |
 * </pre>
 *
 * All integers big-endian (network order).
 */
public final class MailSerializer extends SerializerWithStringManifest implements ByteBufferSerializer {
    /** Serializer id; Pekko reserves 0-40, {@link FrameSerializer} is 8279. */
    public static final int ID = 8280;

    private static final String FRAMES = "M1";
    /** More parcels or frames than a window can carry between two members is hostile. */
    private static final int MAX_COUNT = 1 << 20;

    @Override
    public int identifier() {
        return ID;
    }

    @Override
    public String manifest(Object o) {
        if (o instanceof MemberAgent.Frames) {
            return FRAMES;
        }
        throw new IllegalArgumentException(
                "MailSerializer cannot serialize " + o.getClass().getName());
    }

    /** Exact serialized size of one parcel. */
    static int size(MemberTally.Parcel p) {
        int n = FrameSerializer.utf(p.to()) + 4;
        for (DeviceCommand.FrameIn f : p.frames()) {
            n += FrameSerializer.size(f);
        }
        return n;
    }

    static int size(MemberAgent.Frames f) {
        int n = 8;
        for (MemberTally.Parcel p : f.parcels()) {
            n += size(p);
        }
        return n;
    }

    @Override
    public byte[] toBinary(Object o) {
        ByteBuffer buf = ByteBuffer.allocate(size((MemberAgent.Frames) o));
        toBinary(o, buf);
        return buf.array();
    }

    @Override
    public void toBinary(Object o, ByteBuffer buf) {
        MemberAgent.Frames f = (MemberAgent.Frames) o;
        // Artery's buffer is little-endian and must stay so
        ByteOrder order = buf.order();
        buf.order(ByteOrder.BIG_ENDIAN);
        try {
            buf.putInt(f.from());
            buf.putInt(f.parcels().size());
            for (MemberTally.Parcel p : f.parcels()) {
                FrameSerializer.putString(buf, p.to());
                buf.putInt(p.frames().size());
                for (DeviceCommand.FrameIn m : p.frames()) {
                    FrameSerializer.write(m, buf);
                }
            }
        } finally {
            buf.order(order);
        }
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        return fromBinary(ByteBuffer.wrap(bytes), manifest);
    }

    @Override
    public Object fromBinary(ByteBuffer buf, String manifest) throws NotSerializableException {
        if (!FRAMES.equals(manifest)) {
            throw new NotSerializableException("unknown member mail manifest '" + manifest + "'");
        }
        ByteBuffer in = buf.slice().order(ByteOrder.BIG_ENDIAN);
        try {
            int from = in.getInt();
            int parcels = count(in.getInt(), "parcels");
            List<MemberTally.Parcel> out = new ArrayList<>(Math.min(parcels, 256));
            for (int i = 0; i < parcels; i++) {
                String to = FrameSerializer.getString(in);
                int n = count(in.getInt(), "frames");
                if (n == 0) {
                    throw new NotSerializableException("a parcel of no frames for " + to);
                }
                List<DeviceCommand.FrameIn> frames = new ArrayList<>(Math.min(n, 64));
                for (int k = 0; k < n; k++) {
                    frames.add(FrameSerializer.read(in));
                }
                out.add(new MemberTally.Parcel(to, List.copyOf(frames)));
            }
            if (in.hasRemaining()) {
                throw new NotSerializableException(in.remaining() + " bytes after the parcels");
            }
            buf.position(buf.position() + in.position());
            return new MemberAgent.Frames(from, List.copyOf(out));
        } catch (MalformedPacketException e) {
            throw new NotSerializableException("malformed INA packet: " + e.getMessage());
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new NotSerializableException("truncated member mail: " + e);
        }
    }

    private static int count(int n, String what) throws NotSerializableException {
        if (n < 0 || n > MAX_COUNT) {
            throw new NotSerializableException(n + " " + what + " in one message");
        }
        return n;
    }
}
