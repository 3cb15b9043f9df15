package org.bitina.protocol;

import java.util.List;

/**
 * B6: leaf switches as the edge BFRs of a BIER-INC job. At a leaf: its bit position, its
 * member hosts with their endpoint bits (for the provenance of a partial local sum) and the
 * member behind it that is a BFIR (null when none is). At a member host: its leaf.
 *
 * @param leaf              the leaf switch
 * @param bit               the leaf's bit position in the job's bitstrings
 * @param hosts             the leaf's member hosts (empty at a host)
 * @param hostBits          their endpoint bits, in the same order
 * @param endpointCapacity  size of the endpoints' bit space
 * @param owner             the member behind this leaf that is a BFIR, or null
 */
public record EdgeRole(
        String leaf, int bit, List<String> hosts, List<Integer> hostBits, int endpointCapacity, String owner) {
    public EdgeRole {
        hosts = List.copyOf(hosts);
        hostBits = List.copyOf(hostBits);
        if (hosts.size() != hostBits.size()) {
            throw new IllegalArgumentException("one endpoint bit per host");
        }
    }

    /** The role of a member host: it only knows its leaf. */
    public static EdgeRole host(String leaf, int bit, int endpointCapacity) {
        return new EdgeRole(leaf, bit, List.of(), List.of(), endpointCapacity, null);
    }
}
