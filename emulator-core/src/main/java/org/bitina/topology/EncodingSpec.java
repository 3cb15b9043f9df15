package org.bitina.topology;

import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.HierarchicalBitmap;

/**
 * A job's endpoint-set encoding (H2); {@code blockSize} matters only for the hierarchical one.
 * With {@code hosts}, the job translates at the fabric's edge (seed 000 section 7: "carrying a
 * node list from the host and converting it to a local bitmap inside a pod-scale aggregation
 * domain"): packets on a host's link carry {@code hosts}' encoding, packets between switches
 * this one, and the switch at a host's port converts between them.
 *
 * @param hosts the encoding on host links when it differs from the fabric's; null: one encoding everywhere
 */
public record EncodingSpec(Encoding encoding, int blockSize, EncodingSpec hosts) {
    public static final EncodingSpec FLAT = new EncodingSpec(Encoding.FLAT, 1);

    public EncodingSpec {
        if (hosts != null && hosts.hosts() != null) {
            throw new IllegalArgumentException("a host link's encoding has no further domain");
        }
        if (hosts != null && hosts.encoding() == encoding && hosts.blockSize() == blockSize) {
            hosts = null;
        }
    }

    public EncodingSpec(Encoding encoding, int blockSize) {
        this(encoding, blockSize, null);
    }

    /** Whether packets change encoding at the fabric's edge. */
    public boolean translates() {
        return hosts != null;
    }

    /**
     * The encoding on the link from a node to a node: the hosts' on a host's link (either end a
     * host) when the job translates, else the fabric's (this one's). The one rule both the wire
     * ({@code NodeContext}) and the plan-time MTU check ({@code WireBudget}) follow.
     */
    public EncodingSpec onLink(boolean fromIsHost, boolean toIsHost) {
        return (fromIsHost || toIsHost) && hosts != null ? hosts : this;
    }

    /** Whether {@code set} is already in this encoding (the fabric's: {@code hosts} aside). */
    public boolean holds(EndpointSet set) {
        return set.encoding() == encoding
                && (encoding != Encoding.HIERARCHICAL || ((HierarchicalBitmap) set).blockSize() == blockSize);
    }

    /** {@code set} in this encoding (the fabric's), itself when it is already. */
    public EndpointSet encode(EndpointSet set) {
        return holds(set) ? set : set.to(encoding, blockSize);
    }

    /** As the report and errors say it: {@code flat}, {@code hierarchical (blocks of 16)}, {@code node-list on host links, ...}. */
    public String describe() {
        String own = switch (encoding) {
            case FLAT -> "flat";
            case NODE_LIST -> "node-list";
            case HIERARCHICAL -> "hierarchical (blocks of " + blockSize + ")";
        };
        return hosts == null ? own : hosts.describe() + " on host links, " + own + " between switches";
    }
}
