package org.bitina.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.jackson.JacksonCborSerializer;
import org.bitina.device.DeviceCommand;
import org.bitina.device.FrameSerializer;
import org.junit.jupiter.api.Test;

/**
 * A member alone runs on the local provider without Jackson's serializers, unless every message
 * is serialised (tests), which keeps them; a member of several stays on the cluster provider.
 */
class AloneSettingsTest {
    private static final Config MEMBER = ClusterSettings.defaults().withFallback(ConfigFactory.load());
    private static final int CBOR_ID = MEMBER.getInt("pekko.actor.serialization-identifiers.jackson-cbor");

    @Test
    void aloneIsLocalWithoutJacksonAndAMemberIsClustered() {
        Config alone = ClusterSettings.alone(MEMBER);
        assertEquals(NotBuiltSerializer.class.getName(), alone.getString("pekko.actor.serializers.jackson-cbor"));
        assertEquals(
                "none", alone.getString("pekko.actor.serialization-bindings.\"org.bitina.device.ControlMessage\""));
        assertTrue(alone.hasPath("pekko.actor.serialization-bindings.\"org.bitina.device.DeviceCommand$FrameIn\""));
        ActorTestKit a = ActorTestKit.create(ClusterSettings.SYSTEM, alone);
        ActorTestKit c = ActorTestKit.create(ClusterSettings.SYSTEM, MEMBER);
        try {
            assertFalse(ClusterSettings.clustered(a.system()));
            assertTrue(ClusterSettings.clustered(c.system()));
            Serialization serialization = SerializationExtension.get(a.system());
            // built and bound as before: the data plane's frames; Jackson's stand-in refuses what reaches it
            assertInstanceOf(
                    FrameSerializer.class, serialization.serializerByIdentity().apply(FrameSerializer.ID));
            Serializer cbor = serialization.serializerByIdentity().apply(CBOR_ID);
            assertInstanceOf(NotBuiltSerializer.class, cbor);
            IllegalStateException e = assertThrows(
                    IllegalStateException.class, () -> cbor.toBinary(new DeviceCommand.Advanced("s1", 1L)));
            assertTrue(e.getMessage().contains("serialize-messages = on"), e.getMessage());
        } finally {
            a.shutdownTestKit();
            c.shutdownTestKit();
        }
    }

    @Test
    void aloneBuildsOnlyPekkosBasicSerializersAndBitinas() {
        Config alone = ClusterSettings.alone(MEMBER);
        for (var e : alone.getConfig("pekko.actor.serializers").root().entrySet()) {
            String serializer = String.valueOf(e.getValue().unwrapped());
            boolean basic = serializer.matches("org\\.apache\\.pekko\\.serialization\\.[A-Za-z]+");
            assertTrue(
                    basic || serializer.startsWith("org.bitina."),
                    e.getKey() + " = " + serializer + " is built for a member alone");
        }
        int clusterId = MEMBER.getInt(
                "pekko.actor.serialization-identifiers.\"org.apache.pekko.cluster.protobuf.ClusterMessageSerializer\"");
        ActorTestKit a = ActorTestKit.create(ClusterSettings.SYSTEM, alone);
        try {
            Serialization serialization = SerializationExtension.get(a.system());
            // the cluster's serializer keeps its identifier, as a stand-in
            assertInstanceOf(
                    NotBuiltSerializer.class,
                    serialization.serializerByIdentity().apply(clusterId));
            // nothing is bound to a stand-in: a binding left to one would refuse at the first message, and
            // Pekko warns at start of each one bound to a class of its own (the references are laid under the
            // settings again when the system starts, so the system's bindings are checked, not the settings)
            serialization.bindings().foreach(b -> {
                assertFalse(
                        b._2() instanceof NotBuiltSerializer, b._1().getName() + " is bound to a serializer not built");
                return null;
            });
            for (var e :
                    alone.getConfig("pekko.actor.serialization-bindings").root().entrySet()) {
                String binding = String.valueOf(e.getValue().unwrapped());
                if (binding.equals("none")) {
                    continue;
                }
                assertFalse(
                        alone.getString("pekko.actor.serializers." + binding)
                                .equals(NotBuiltSerializer.class.getName()),
                        e.getKey() + " is bound to " + binding + ", not built");
            }
        } finally {
            a.shutdownTestKit();
        }
    }

    @Test
    void aloneKeepsJacksonWhenEveryMessageIsSerialised() {
        Config serialising = ClusterSettings.alone(
                ConfigFactory.parseString("pekko.actor.serialize-messages = on").withFallback(MEMBER));
        ActorTestKit a = ActorTestKit.create(ClusterSettings.SYSTEM, serialising);
        try {
            assertFalse(ClusterSettings.clustered(a.system()));
            assertInstanceOf(
                    JacksonCborSerializer.class,
                    SerializationExtension.get(a.system()).findSerializerFor(new DeviceCommand.Advanced("s1", 42L)));
        } finally {
            a.shutdownTestKit();
        }
    }

    @Test
    void runsAloneOnlyWithOneMemberAndNoSeeds() {
        assertTrue(ClusterSettings.runsAlone(1, MEMBER));
        assertFalse(ClusterSettings.runsAlone(3, MEMBER));
        assertFalse(ClusterSettings.runsAlone(
                1,
                ClusterSettings.member("127.0.0.1", 2552, List.of("127.0.0.1:2552"))
                        .withFallback(ConfigFactory.load())));
    }
}
