package org.bitina.capture;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * An INA packet as a capture frames it: Ethernet, then a BIER header as RFC 8296 lays it out
 * (ethertype {@value #ETHERTYPE}), then the INA header and payload exactly as the codec wrote them
 * (the S2 tag included where MACs are on).
 *
 * <p>The BIER fields: BIFT-id {@value #BIFT} for the framework's packets and the baselines',
 * {@value #BIFT_INC_FORWARD} and {@value #BIFT_INC_REVERSE} for seed 001's INC-forward and
 * INC-reverse BIFTs; BSL the smallest of 64..4096 bits that holds the job's bit space; entropy
 * the communicator id where the packet has one, else the job id (low 20 bits); proto
 * {@value #PROTO_INA}, unassigned in the BIER Next Protocol registry; BFIR-id the sending
 * endpoint's BFR-id (index + 1), on an INC-reverse packet its destination's (seed 001: "the BFIR-ID
 * identifies the destination"), 0 for none. The bitstring is the packet's endpoint set with
 * endpoint {@code i} at BFR-id {@code i + 1} (RFC 8279: BFR-id 1 is the rightmost bit); a bit
 * space over 4096 bits keeps its first 4096 there (the INA header has the whole set).
 */
public final class BierFrame {
    public static final int ETHERTYPE = 0xAB37;
    public static final int PROTO_INA = 62;
    public static final int BIFT = 1;
    public static final int BIFT_INC_FORWARD = 2;
    public static final int BIFT_INC_REVERSE = 3;
    /** Ethernet's destination, source and type. */
    public static final int ETHERNET_BYTES = 14;
    /** BIER's three fixed words, before the bitstring. */
    public static final int BIER_FIXED_BYTES = 12;

    private static final int MAX_BSL_BITS = 4096;

    private BierFrame() {}

    /** The frame of {@code packet} (whose codec bytes are {@code ina}) sent by {@code from} to {@code to}. */
    public static byte[] of(String from, String to, InaPacket packet, byte[] ina) {
        InaHeader h = packet.header();
        EndpointSet set = packet.endpoints();
        int bslBits = bslBits(set.capacity());
        ByteBuffer b = ByteBuffer.allocate(ETHERNET_BYTES + BIER_FIXED_BYTES + bslBits / 8 + ina.length);
        b.put(mac(to)).put(mac(from)).putShort((short) ETHERTYPE);
        int ttl = 64;
        // BIFT-id (20) | TC (3) | S (1) | TTL (8); S set: nothing below BIER but its payload
        b.putInt((bift(h.type()) << 12) | (1 << 8) | ttl);
        int entropy = (h.entropy() != 0 ? h.entropy() : h.job()) & 0xFFFFF;
        // nibble 0101 | version 0 | BSL code | entropy (20)
        b.putInt((0b0101 << 28) | (bslCode(bslBits) << 20) | entropy);
        // OAM (2) | Rsv (2) | DSCP (6) | proto (6) | BFIR-id (16)
        b.putInt((PROTO_INA << 16) | (bfirId(h) & 0xFFFF));
        byte[] bits = new byte[bslBits / 8];
        for (int i = set.nextSetBit(0); i >= 0 && i < bslBits; i = set.nextSetBit(i + 1)) {
            // BFR-id i + 1 is bit i counted from the right of the last byte
            bits[bits.length - 1 - (i >>> 3)] |= (byte) (1 << (i & 7));
        }
        b.put(bits).put(ina);
        return b.array();
    }

    /** The BSL in bits for a bit space of {@code capacity}: 64 to 4096, a power of two. */
    static int bslBits(int capacity) {
        int bits = 64;
        while (bits < capacity && bits < MAX_BSL_BITS) {
            bits <<= 1;
        }
        return bits;
    }

    /** RFC 8296's BSL code: 1 for 64 bits up to 7 for 4096. */
    static int bslCode(int bits) {
        return Integer.numberOfTrailingZeros(bits) - 5;
    }

    static int bift(PacketType t) {
        return switch (t) {
            case INC_FORWARD -> BIFT_INC_FORWARD;
            case INC_REVERSE -> BIFT_INC_REVERSE;
            default -> BIFT;
        };
    }

    static int bfirId(InaHeader h) {
        int endpoint = h.type() == PacketType.INC_REVERSE ? h.destination() : h.source();
        return endpoint < 0 ? 0 : endpoint + 1;
    }

    /** A locally administered unicast address of the node: 06 (no vendor in Wireshark's list has it) and five bytes of its name's SHA-256. */
    public static byte[] mac(String node) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(node.getBytes(StandardCharsets.UTF_8));
            return new byte[] {0x06, d[0], d[1], d[2], d[3], d[4]};
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
