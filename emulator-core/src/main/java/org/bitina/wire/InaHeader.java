package org.bitina.wire;

/**
 * The fixed part of the INA header (seed 000 section 6, requirement H1): version,
 * direction (implied by the packet type), job and tenant, sequence/chunk/token id, plus
 * the reduction op, the source and destination endpoints and the BIER entropy that
 * carries a communicator id (seed 001). The encoding type, set descriptor, element type
 * and lengths are written by {@link PacketCodec} from the packet's set and payload.
 *
 * @param source      the sending endpoint's index in the job's bit space, or -1
 * @param destination the destination endpoint's index (unicast baselines; BFIR-id of an
 *                    INC reverse packet), or -1
 * @param entropy     communicator id for BIER-INC packets, else 0
 */
public record InaHeader(
        int version,
        PacketType type,
        int flags,
        ReductionOp op,
        int tenant,
        int job,
        long seq,
        int source,
        int destination,
        int entropy) {

    public static final int CURRENT_VERSION = 1;
    public static final int MAX_TENANT = 0xFFFF;

    public InaHeader {
        if (version < 0 || version > 15) {
            throw new IllegalArgumentException("version must fit 4 bits: " + version);
        }
        if (type == null || op == null) {
            throw new IllegalArgumentException("packet type and op are required");
        }
        if ((flags & ~Flags.KNOWN) != 0 || flags > 0xFF) {
            throw new IllegalArgumentException("unknown flag bits 0x" + Integer.toHexString(flags & ~Flags.KNOWN));
        }
        if (tenant < 0 || tenant > MAX_TENANT) {
            throw new IllegalArgumentException("tenant id must be 0.." + MAX_TENANT + ": " + tenant);
        }
        if (source < -1 || destination < -1) {
            throw new IllegalArgumentException("endpoints are indices or -1");
        }
    }

    public static InaHeader of(PacketType type, int tenant, int job, long seq) {
        return new InaHeader(CURRENT_VERSION, type, 0, ReductionOp.NONE, tenant, job, seq, -1, -1, 0);
    }

    public Direction direction() {
        return type.direction();
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    public InaHeader withType(PacketType t) {
        return new InaHeader(version, t, flags, op, tenant, job, seq, source, destination, entropy);
    }

    public InaHeader withFlags(int f) {
        return new InaHeader(version, type, f, op, tenant, job, seq, source, destination, entropy);
    }

    public InaHeader withOp(ReductionOp o) {
        return new InaHeader(version, type, flags, o, tenant, job, seq, source, destination, entropy);
    }

    public InaHeader withSource(int s) {
        return new InaHeader(version, type, flags, op, tenant, job, seq, s, destination, entropy);
    }

    public InaHeader withDestination(int d) {
        return new InaHeader(version, type, flags, op, tenant, job, seq, source, d, entropy);
    }

    public InaHeader withEntropy(int e) {
        return new InaHeader(version, type, flags, op, tenant, job, seq, source, destination, e);
    }

    @Override
    public String toString() {
        return "v" + version + " " + type + " " + direction() + " t" + tenant + "/j" + job + " seq=" + seq
                + " flags=" + Flags.describe(flags) + (op == ReductionOp.NONE ? "" : " op=" + op)
                + (source >= 0 ? " src=" + source : "") + (destination >= 0 ? " dst=" + destination : "")
                + (entropy != 0 ? " entropy=" + entropy : "");
    }
}
