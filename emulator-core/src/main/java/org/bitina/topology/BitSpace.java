package org.bitina.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;

/**
 * A job's bit space (requirement F1, BFR-id style): endpoint names in bit order. Bit 1 of
 * the seeds (printed leftmost) is index 0. The same index may name different endpoints in
 * different jobs. Positions may be unassigned (null) when a job's bit space is wider than
 * its member set, as in the seed's Fig. 1 where 8 servers share the space and 4 take part.
 */
public final class BitSpace {
    private final List<String> endpoints;
    private final Map<String, Integer> indexOf = new HashMap<>();
    private final Map<String, String> nodeOf;

    /** A bit space whose endpoints are the nodes themselves (hosts, as in AllReduce). */
    public BitSpace(List<String> endpoints) {
        this(endpoints, Map.of());
    }

    /**
     * A bit space whose endpoints live on nodes ({@code nodeOf}: endpoint to node, e.g. MoE
     * experts to their hosts); an endpoint missing from the map is a node itself.
     */
    public BitSpace(List<String> endpoints, Map<String, String> nodeOf) {
        // in name order: Map.copyOf's order depends on the JVM's seed and the insertion order, and a plan sent
        // to another member must serialise the same there as here
        this.nodeOf = Collections.unmodifiableMap(new TreeMap<>(nodeOf));
        if (endpoints.isEmpty() || endpoints.size() > EndpointSet.MAX_CAPACITY) {
            throw new IllegalArgumentException("a bit space has 1.." + EndpointSet.MAX_CAPACITY + " positions");
        }
        this.endpoints = Collections.unmodifiableList(new ArrayList<>(endpoints));
        for (int i = 0; i < endpoints.size(); i++) {
            String e = endpoints.get(i);
            if (e != null && indexOf.put(e, i) != null) {
                throw new IllegalArgumentException("endpoint " + e + " holds two bit positions");
            }
        }
    }

    /** Endpoints that live on another node (MoE experts on hosts); the others are nodes themselves. */
    public Map<String, String> nodeOf() {
        return nodeOf;
    }

    public int capacity() {
        return endpoints.size();
    }

    /** The endpoint at {@code index}, or null for an unassigned position. */
    public String endpoint(int index) {
        return endpoints.get(index);
    }

    /** The node that endpoint {@code index} lives on, or null for an unassigned position. */
    public String node(int index) {
        String e = endpoints.get(index);
        return e == null ? null : nodeOf.getOrDefault(e, e);
    }

    public boolean contains(String endpoint) {
        return indexOf.containsKey(endpoint);
    }

    public int index(String endpoint) {
        Integer i = indexOf.get(endpoint);
        if (i == null) {
            throw new IllegalArgumentException(endpoint + " has no bit in this job");
        }
        return i;
    }

    public FlatBitmap setOf(Collection<String> names) {
        return FlatBitmap.of(capacity(), names.stream().mapToInt(this::index).toArray());
    }

    /** Names of the members of {@code set}, in bit order. */
    public List<String> names(EndpointSet set) {
        return set.stream().mapToObj(this::endpoint).toList();
    }

    public List<String> endpoints() {
        return endpoints;
    }
}
