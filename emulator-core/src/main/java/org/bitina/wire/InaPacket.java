package org.bitina.wire;

import java.util.Arrays;
import java.util.Objects;
import org.bitina.bitmap.EndpointSet;

/**
 * An INA packet: header, endpoint set (D-BM, P-BM, destination bitmap, BIER bitstring)
 * and payload, with an optional provenance bitmap (which contributions a multicast result
 * holds, when that is not its destination set) and an optional 16-byte authentication tag
 * (S2). The header's AUTH and PROVENANCE flags always agree with what is present.
 */
public record InaPacket(
        InaHeader header, EndpointSet endpoints, Payload payload, EndpointSet provenance, byte[] authTag) {

    public static final int AUTH_TAG_BYTES = 16;

    public InaPacket {
        if (header == null || endpoints == null || payload == null) {
            throw new IllegalArgumentException("header, endpoint set and payload are required");
        }
        if (authTag != null && authTag.length != AUTH_TAG_BYTES) {
            throw new IllegalArgumentException("authentication tag must be " + AUTH_TAG_BYTES + " bytes");
        }
        int flags = (header.flags() & ~(Flags.AUTH | Flags.PROVENANCE))
                | (authTag != null ? Flags.AUTH : 0)
                | (provenance != null ? Flags.PROVENANCE : 0);
        if (flags != header.flags()) {
            header = header.withFlags(flags);
        }
    }

    public InaPacket(InaHeader header, EndpointSet endpoints, Payload payload) {
        this(header, endpoints, payload, null, null);
    }

    public InaPacket(InaHeader header, EndpointSet endpoints, Payload payload, byte[] authTag) {
        this(header, endpoints, payload, null, authTag);
    }

    public InaPacket withEndpoints(EndpointSet set) {
        return new InaPacket(header, set, payload, provenance, authTag);
    }

    public InaPacket withHeader(InaHeader h) {
        return new InaPacket(h, endpoints, payload, provenance, authTag);
    }

    /** This packet with {@code flag} set besides its others (LATE, RETRANSMIT, CE on the way). */
    public InaPacket flagged(int flag) {
        return withHeader(header.withFlags(header.flags() | flag));
    }

    public InaPacket withPayload(Payload p) {
        return new InaPacket(header, endpoints, p, provenance, authTag);
    }

    public InaPacket withProvenance(EndpointSet p) {
        return new InaPacket(header, endpoints, payload, p, authTag);
    }

    public InaPacket withAuthTag(byte[] tag) {
        return new InaPacket(header, endpoints, payload, provenance, tag);
    }

    /** The contributions this packet's payload holds: the provenance when present, else the set. */
    public EndpointSet holds() {
        return provenance != null ? provenance : endpoints;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InaPacket p
                && header.equals(p.header)
                && endpoints.equals(p.endpoints)
                && endpoints.encoding() == p.endpoints.encoding()
                && payload.equals(p.payload)
                && Objects.equals(provenance, p.provenance)
                && Arrays.equals(authTag, p.authTag);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * header.hashCode() + endpoints.hashCode()) + payload.hashCode();
    }

    @Override
    public String toString() {
        return "InaPacket{" + header + " " + endpoints.encoding() + " " + endpoints
                + (provenance != null ? " holds " + provenance : "") + " " + payload + "}";
    }
}
