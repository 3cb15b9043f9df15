package org.bitina.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigUtil;
import java.io.NotSerializableException;
import java.util.Optional;
import org.apache.pekko.actor.ExtendedActorSystem;
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
        Config settings = system.settings().config();
        this.identifier = identifier(settings, binding, settings.getString(replacedPath(binding)))
                .orElseThrow(() -> new IllegalStateException("no serialization identifier for " + binding));
    }

    /** Where {@link ClusterSettings#alone} keeps the class of the serializer this one stands in for. */
    static String replacedPath(String binding) {
        return ConfigUtil.joinPath("bitina", "not-built-serializers", binding);
    }

    /**
     * The identifier Pekko gives serializer {@code serializer} bound as {@code binding}, from the
     * settings (by binding name, as Jackson's, or by class name, as remoting's); empty when
     * neither names it (its identifier is in its own code).
     */
    static Optional<Integer> identifier(Config settings, String binding, String serializer) {
        for (String key : new String[] {binding, serializer}) {
            String path = ConfigUtil.joinPath("pekko", "actor", "serialization-identifiers", key);
            if (settings.hasPath(path)) {
                return Optional.of(settings.getInt(path));
            }
        }
        return Optional.empty();
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
