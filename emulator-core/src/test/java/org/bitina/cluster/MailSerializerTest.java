package org.bitina.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.bitina.bitmap.EndpointSets;
import org.bitina.device.DeviceCommand;
import org.bitina.device.MemberTally;
import org.bitina.protocol.Frame;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MailSerializerTest {
    private final ActorTestKit kit = ActorTestKit.create(ConfigFactory.load());
    private final MailSerializer serializer = new MailSerializer();

    @AfterAll
    void shutdown() {
        kit.shutdownTestKit();
    }

    private static DeviceCommand.FrameIn frame(String from, long vt, float value) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 3, 7, 42).withOp(ReductionOp.SUM);
        InaPacket p = new InaPacket(h, EndpointSets.parse("[11000000]"), Payload.of(new float[] {value, -2f}));
        return new DeviceCommand.FrameIn(new Frame(p, null, vt, null), from);
    }

    private static MemberAgent.Frames sample() {
        return new MemberAgent.Frames(
                2,
                List.of(
                        new MemberTally.Parcel(
                                "core-1", List.of(frame("agg-1-1", 1_001, 1f), frame("agg-1-1", 1_002, 2f))),
                        new MemberTally.Parcel("core-2", List.of(frame("agg-1-2", 1_001, 3f)))));
    }

    private byte[] bytes(MemberAgent.Frames f) {
        return serializer.toBinary(f);
    }

    @Test
    void aWindowsFramesBetweenMembersAreBoundToTheBinaryMailAndRoundTripInOrder() throws Exception {
        Serialization serialization = SerializationExtension.get(kit.system());
        MemberAgent.Frames m = sample();
        var bound = serialization.findSerializerFor(m);
        assertEquals(MailSerializer.ID, bound.identifier(), "member mail uses the INA codec, not Jackson");
        byte[] b = serialization.serialize(m).get();
        assertEquals(MailSerializer.size(m), b.length, "the size the agent splits messages by is exact");
        Object back = serialization
                .deserialize(b, bound.identifier(), Serializers.manifestFor(bound, m))
                .get();
        assertEquals(m, back);
    }

    @Test
    void anUnknownManifestIsRefused() {
        assertThrows(NotSerializableException.class, () -> serializer.fromBinary(bytes(sample()), "M9"));
    }

    @Test
    void truncatedMailIsRefused() {
        byte[] b = bytes(sample());
        for (int n : new int[] {0, 3, 7, 12, b.length - 1}) {
            byte[] cut = Arrays.copyOf(b, n);
            assertThrows(NotSerializableException.class, () -> serializer.fromBinary(cut, "M1"), "cut at " + n);
        }
    }

    @Test
    void bytesAfterTheParcelsAreRefused() {
        byte[] b = Arrays.copyOf(bytes(sample()), MailSerializer.size(sample()) + 1);
        assertThrows(NotSerializableException.class, () -> serializer.fromBinary(b, "M1"));
    }

    @Test
    void aHostileParcelCountOrAnEmptyParcelIsRefused() {
        byte[] many = bytes(sample());
        ByteBuffer.wrap(many).putInt(4, Integer.MAX_VALUE);
        assertThrows(NotSerializableException.class, () -> serializer.fromBinary(many, "M1"));
        byte[] negative = bytes(sample());
        ByteBuffer.wrap(negative).putInt(4, -1);
        assertThrows(NotSerializableException.class, () -> serializer.fromBinary(negative, "M1"));
        // the first parcel's frame count follows its name (2 bytes of length + "core-1")
        byte[] empty = bytes(sample());
        ByteBuffer.wrap(empty).putInt(8 + 2 + 6, 0);
        assertThrows(NotSerializableException.class, () -> serializer.fromBinary(empty, "M1"));
    }
}
