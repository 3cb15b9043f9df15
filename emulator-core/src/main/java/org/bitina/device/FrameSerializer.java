package org.bitina.device;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.UncheckedIOException;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.bitina.protocol.Frame;
import org.bitina.wire.InaPacket;
import org.bitina.wire.MalformedPacketException;
import org.bitina.wire.PacketCodec;

/**
 * Data-plane frames cross JVMs in the project's own binary wire format (DESIGN.md): a small
 * envelope (sender, underlay destination, modelled time, via) followed by the INA packet as
 * {@link PacketCodec} writes it, so the header format is exercised for real. Bound to
 * {@link DeviceCommand.FrameIn} in application.conf; hostile bytes are refused with
 * {@link NotSerializableException}, never anything else.
 */
public final class FrameSerializer extends SerializerWithStringManifest {
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
        throw new IllegalArgumentException("FrameSerializer cannot serialize " + o.getClass().getName());
    }

    @Override
    public byte[] toBinary(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1200);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (o instanceof DeviceCommand.FrameBatch b) {
                out.writeInt(b.frames().size());
                for (DeviceCommand.FrameIn m : b.frames()) {
                    write(m, out);
                }
            } else {
                write((DeviceCommand.FrameIn) o, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void write(DeviceCommand.FrameIn m, DataOutputStream out) throws IOException {
        Frame f = m.frame();
        byte[] packet = PacketCodec.encode(f.packet());
        out.writeUTF(m.from());
        writeOptional(out, f.destination());
        out.writeLong(f.vt());
        writeOptional(out, f.via());
        out.writeInt(packet.length);
        out.write(packet);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        if (!FRAME_IN.equals(manifest) && !BATCH.equals(manifest)) {
            throw new NotSerializableException("unknown frame manifest '" + manifest + "'");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            Object out;
            if (BATCH.equals(manifest)) {
                int n = in.readInt();
                if (n < 1 || n > MAX_BATCH) {
                    throw new NotSerializableException("a batch of " + n + " frames");
                }
                java.util.List<DeviceCommand.FrameIn> frames = new java.util.ArrayList<>(Math.min(n, 64));
                for (int i = 0; i < n; i++) {
                    frames.add(read(in));
                }
                out = new DeviceCommand.FrameBatch(java.util.List.copyOf(frames));
            } else {
                out = read(in);
            }
            if (in.available() != 0) {
                throw new NotSerializableException(in.available() + " bytes after the frames");
            }
            return out;
        } catch (MalformedPacketException e) {
            throw new NotSerializableException("malformed INA packet: " + e.getMessage());
        } catch (IOException e) {
            if (e instanceof NotSerializableException n) {
                throw n;
            }
            throw new NotSerializableException("truncated frame envelope: " + e);
        }
    }

    private static DeviceCommand.FrameIn read(DataInputStream in) throws IOException, MalformedPacketException {
        String from = in.readUTF();
        String destination = readOptional(in);
        long vt = in.readLong();
        String via = readOptional(in);
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new NotSerializableException("frame says " + length + " packet bytes, " + in.available() + " follow");
        }
        byte[] packet = in.readNBytes(length);
        InaPacket p = PacketCodec.decode(packet);
        return new DeviceCommand.FrameIn(new Frame(p, destination, vt, via), from);
    }

    private static void writeOptional(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
