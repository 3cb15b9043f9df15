package org.bitina.security;

import java.util.List;
import java.util.Locale;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Direction;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * What a job lets into a node, port by port (seed 000 section 8; docs/requirements.md S1 and S4): the one
 * place in the data path where a frame from a neighbour is checked before any tree mechanism
 * sees it. The threat is a hostile endpoint, not a hostile switch: a host port may set only the
 * bits of the endpoints on that host (no speaking for another member), no packet may carry
 * bits of endpoints that are not the job's (no amplification toward non-members), and results,
 * dispatches and multicast data may come from a host port only when that host is one of the
 * job's senders (its VAT or PS root, its MoE sources, its multicast source), never from a
 * member. BIER-INC's packets are left to its own checks: there a member legitimately
 * reduces for others.
 *
 * @param members the bits of the job's endpoints (a packet's bitmap and provenance stay inside)
 * @param senders the hosts that may send results, dispatches and multicast data
 * @param contributions how many contribution numbers (chunks) one endpoint sends: the width of
 *                      the anti-replay window at its port (S3), and the bound on the numbers it
 *                      may use (a number beyond would open state no honest sender asks for)
 * @param rate          the job's packets a host port may send per modelled second (S4's token
 *                      bucket), or null: not limited
 */
public record IngressPolicy(EndpointSet members, List<String> senders, int contributions, RateLimit rate) {

    /** S4's per-source limit: {@code burst} packets at once, {@code perSecond} a second after. */
    public record RateLimit(long perSecond, int burst) {
        public TokenBucket bucket() {
            return new TokenBucket(perSecond, burst);
        }
    }

    /** Senders in order: the policy crosses JVMs inside the job's tables and must serialise the same every time. */
    public IngressPolicy {
        senders = senders.stream().sorted().distinct().toList();
    }

    public IngressPolicy(EndpointSet members, List<String> senders) {
        this(members, senders, 0, null);
    }

    public IngressPolicy(EndpointSet members, List<String> senders, int contributions) {
        this(members, senders, contributions, null);
    }

    /**
     * Why {@code p} may not enter from neighbour {@code from}, or null when it may.
     *
     * @param fromHost whether that neighbour is a host (an endpoint's port)
     * @param behind   the bits whose next hop from here is that neighbour (its F-BM): for a host
     *                 port, the endpoints on that host; null when this node has no BIFT for the job
     */
    public String refuse(InaPacket p, String from, boolean fromHost, EndpointSet behind) {
        PacketType type = p.header().type();
        if (type == PacketType.INC_FORWARD || type == PacketType.INC_REVERSE) {
            return null;
        }
        EndpointSet bits = p.endpoints();
        if (members != null && bits.capacity() == members.capacity() && !bits.isSubsetOf(members)) {
            return "bits of endpoints that are not the job's members";
        }
        EndpointSet provenance = p.provenance();
        if (members != null
                && provenance != null
                && provenance.capacity() == members.capacity()
                && !provenance.isSubsetOf(members)) {
            return "provenance of endpoints that are not the job's members";
        }
        if (!fromHost || from == null) {
            return null;
        }
        if (type.direction() == Direction.AGGREGATION) {
            if (behind != null && behind.capacity() == bits.capacity() && !bits.isSubsetOf(behind)) {
                return "spoofed bits: host " + from + " set bits of endpoints that are not on it";
            }
            return null;
        }
        if (type != PacketType.UNICAST && !senders.contains(from)) {
            return "a " + type.name().toLowerCase(Locale.ROOT) + " from host " + from
                    + ", which is not the job's sender";
        }
        return null;
    }
}
