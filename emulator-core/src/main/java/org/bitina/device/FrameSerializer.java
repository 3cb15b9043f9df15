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

    @Override
    public int identifier() {
        return ID;
    }

    @Override
    public String manifest(Object o) {
        if (o instanceof DeviceCommand.FrameIn) {
            return FRAME_IN;
        }
        throw new IllegalArgumentException("FrameSerializer cannot serialize " + o.getClass().getName());
    }

    @Override
    public byte[] toBinary(Object o) {
        DeviceCommand.FrameIn m = (DeviceCommand.FrameIn) o;
        Frame f = m.frame();
        byte[] packet = PacketCodec.encode(f.packet());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(packet.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(m.from());
            writeOptional(out, f.destination());
            out.writeLong(f.vt());
            writeOptional(out, f.via());
            out.writeInt(packet.length);
            out.write(packet);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        if (!FRAME_IN.equals(manifest)) {
            throw new NotSerializableException("unknown frame manifest '" + manifest + "'");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            String from = in.readUTF();
            String destination = readOptional(in);
            long vt = in.readLong();
            String via = readOptional(in);
            int length = in.readInt();
            if (length < 0 || length != in.available()) {
                throw new NotSerializableException("frame says " + length + " packet bytes, " + in.available() + " follow");
            }
            byte[] packet = in.readNBytes(length);
            InaPacket p = PacketCodec.decode(packet);
            return new DeviceCommand.FrameIn(new Frame(p, destination, vt, via), from);
        } catch (MalformedPacketException e) {
            throw new NotSerializableException("malformed INA packet: " + e.getMessage());
        } catch (IOException e) {
            throw new NotSerializableException("truncated frame envelope: " + e);
        }
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
