package org.bitina.cluster;

import java.io.NotSerializableException;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.BaseSerializer$;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Stands in, for a member alone ({@link ClusterSettings#alone}), for a serializer it does not
 * build: Pekko builds every configured serializer when a system starts, and lays the libraries'
 * references under any settings, so a serializer can be replaced but not removed. Nothing is
 * bound to this one there; a message that reaches it anyway is refused, saying why.
 */
public final class NotBuiltSerializer extends SerializerWithStringManifest {
    private final String binding;
    private final int identifier;

    public NotBuiltSerializer(ExtendedActorSystem system, String binding) {
        this.binding = binding;
        this.identifier = BaseSerializer$.MODULE$.identifierFromConfig(binding, system);
    }

    @Override
    public int identifier() {
        return identifier;
    }

    @Override
    public String manifest(Object o) {
        throw refused(o.getClass().getName());
    }

    @Override
    public byte[] toBinary(Object o) {
        throw refused(o.getClass().getName());
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        throw new NotSerializableException(refused(manifest).getMessage());
    }

    private IllegalStateException refused(String what) {
        return new IllegalStateException("serializer " + binding + " is not built in a member alone (" + what
                + "); pekko.actor.serialize-messages = on builds it");
    }
}
