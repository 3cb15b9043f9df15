package org.bitina.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.bitina.bitmap.EndpointSets;
import org.bitina.protocol.Frame;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FrameSerializerTest {
    private final ActorTestKit kit = ActorTestKit.create(ConfigFactory.load());

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    private static DeviceCommand.FrameIn sample() {
        InaHeader h = InaHeader.of(PacketType.RESULT, 3, 7, 42)
                .withOp(ReductionOp.SUM)
                .withFlags(Flags.PARTIAL);
        InaPacket p = new InaPacket(h, EndpointSets.parse("[11110000]"), Payload.of(new float[] {1.5f, -2f}))
                .withProvenance(EndpointSets.parse("[11100000]"));
        return new DeviceCommand.FrameIn(new Frame(p, null, 123_456L, "s0"), "s6");
    }

    @Test
    void framesAreBoundToTheWireCodecAndRoundTrip() throws Exception {
        Serialization serialization = SerializationExtension.get(kit.system());
        DeviceCommand.FrameIn m = sample();
        var serializer = serialization.findSerializerFor(m);
        assertEquals(FrameSerializer.ID, serializer.identifier(), "FrameIn uses the INA codec, not Java or Jackson");
        byte[] bytes = serialization.serialize(m).get();
        Object back = serialization
                .deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, m))
                .get();
        assertEquals(m, back);
    }

    @Test
    void writesIntoAnArteryBufferWithoutChangingItsByteOrder() throws Exception {
        // Artery hands ByteBufferSerializers its little-endian envelope buffer: the frame goes in
        // network order, and the buffer's own order must be as it was for the envelope after it
        FrameSerializer s = new FrameSerializer();
        ByteBuffer buf = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(7);
        s.toBinary(sample(), buf);
        assertEquals(ByteOrder.LITTLE_ENDIAN, buf.order());
        assertEquals(4 + FrameSerializer.size(sample()), buf.position());
        buf.flip();
        assertEquals(7, buf.getInt());
        assertEquals(sample(), s.fromBinary(buf, "F1"));
        assertEquals(buf.limit(), buf.position(), "the read consumed exactly the frame");
    }

    @Test
    void batchesRoundTripInOrderAndHostileCountsAreRefused() throws Exception {
        Serialization serialization = SerializationExtension.get(kit.system());
        DeviceCommand.FrameIn a = sample();
        DeviceCommand.FrameIn b = new DeviceCommand.FrameIn(new Frame(a.frame().packet(), "w1", 7L, null), "s1");
        DeviceCommand.FrameBatch batch = new DeviceCommand.FrameBatch(List.of(a, b, a));
        var serializer = serialization.findSerializerFor(batch);
        assertEquals(FrameSerializer.ID, serializer.identifier());
        byte[] bytes = serialization.serialize(batch).get();
        assertEquals(
                batch,
                serialization
                        .deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, batch))
                        .get());
        FrameSerializer s = new FrameSerializer();
        byte[] hostile = bytes.clone();
        hostile[0] = 0x7f;
        assertThrows(NotSerializableException.class, () -> s.fromBinary(hostile, "B1"), "a count past the bytes");
        byte[] zero = bytes.clone();
        zero[0] = 0;
        zero[1] = 0;
        zero[2] = 0;
        zero[3] = 0;
        assertThrows(NotSerializableException.class, () -> s.fromBinary(zero, "B1"), "an empty batch");
        assertThrows(
                NotSerializableException.class,
                () -> s.fromBinary(Arrays.copyOf(bytes, bytes.length + 1), "B1"),
                "trailing bytes");
    }

    @Test
    void hostileBytesAreRefusedWithNotSerializableException() {
        FrameSerializer s = new FrameSerializer();
        byte[] good = s.toBinary(sample());
        assertEquals(sample(), assertDoesNotThrowDecode(s, good));
        assertThrows(NotSerializableException.class, () -> s.fromBinary(good, "nope"));
        assertThrows(NotSerializableException.class, () -> s.fromBinary(Arrays.copyOf(good, good.length - 1), "F1"));
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = good.clone();
            b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            try {
                s.fromBinary(b, "F1");
            } catch (NotSerializableException expected) {
                // refused: fine
            }
        }
        assertArrayEquals(good, s.toBinary(sample()));
    }

    private static Object assertDoesNotThrowDecode(FrameSerializer s, byte[] b) {
        try {
            return s.fromBinary(b, "F1");
        } catch (NotSerializableException e) {
            throw new AssertionError(e);
        }
    }
}
