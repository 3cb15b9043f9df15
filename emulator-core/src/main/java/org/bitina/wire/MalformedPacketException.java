package org.bitina.wire;

/**
 * The one exception {@link PacketCodec#decode} throws: the bytes are not a valid INA
 * packet. A switch counts and drops such a packet; it never crashes on it.
 */
public final class MalformedPacketException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedPacketException(String message) {
        super(message);
    }
}
