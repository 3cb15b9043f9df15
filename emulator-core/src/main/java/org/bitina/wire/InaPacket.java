package org.bitina.wire;

import java.util.Arrays;
import org.bitina.bitmap.EndpointSet;

/**
 * An INA packet: header, endpoint set (D-BM, P-BM, destination bitmap, BIER bitstring)
 * and payload, with an optional 16-byte authentication tag (S2). The header's AUTH flag
 * always agrees with the presence of the tag.
 */
public record InaPacket(InaHeader header, EndpointSet endpoints, Payload payload, byte[] authTag) {

    public static final int AUTH_TAG_BYTES = 16;

    public InaPacket {
        if (header == null || endpoints == null || payload == null) {
            throw new IllegalArgumentException("header, endpoint set and payload are required");
        }
        if (authTag != null && authTag.length != AUTH_TAG_BYTES) {
            throw new IllegalArgumentException("authentication tag must be " + AUTH_TAG_BYTES + " bytes");
        }
        int flags = (header.flags() & ~Flags.AUTH) | (authTag != null ? Flags.AUTH : 0);
        if (flags != header.flags()) {
            header = header.withFlags(flags);
        }
    }

    public InaPacket(InaHeader header, EndpointSet endpoints, Payload payload) {
        this(header, endpoints, payload, null);
    }

    public InaPacket withEndpoints(EndpointSet set) {
        return new InaPacket(header, set, payload, authTag);
    }

    public InaPacket withHeader(InaHeader h) {
        return new InaPacket(h, endpoints, payload, authTag);
    }

    public InaPacket withPayload(Payload p) {
        return new InaPacket(header, endpoints, p, authTag);
    }

    public InaPacket withAuthTag(byte[] tag) {
        return new InaPacket(header, endpoints, payload, tag);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InaPacket p && header.equals(p.header) && endpoints.equals(p.endpoints)
                && endpoints.encoding() == p.endpoints.encoding() && payload.equals(p.payload)
                && Arrays.equals(authTag, p.authTag);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * header.hashCode() + endpoints.hashCode()) + payload.hashCode();
    }

    @Override
    public String toString() {
        return "InaPacket{" + header + " " + endpoints.encoding() + " " + endpoints + " " + payload + "}";
    }
}
