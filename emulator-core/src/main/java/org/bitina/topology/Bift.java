package org.bitina.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;

/**
 * A node's Bit Index Forwarding Table for one job's bit space (RFC 8279 section 6.4,
 * seed 000 requirement F3): for every neighbour, the forwarding bitmap (F-BM) of the bit
 * positions whose endpoints are reached through it; plus the positions that are this
 * node itself (local delivery) and those no neighbour reaches.
 */
public final class Bift {
    private final String node;
    private final Map<String, FlatBitmap> forwardingBitmaps;
    private final String[] neighborOfBit;
    private final FlatBitmap local;
    private final FlatBitmap unreachable;

    private Bift(String node, Map<String, FlatBitmap> fbms, String[] neighborOfBit, FlatBitmap local, FlatBitmap unreachable) {
        this.node = node;
        this.forwardingBitmaps = Collections.unmodifiableMap(fbms);
        this.neighborOfBit = neighborOfBit;
        this.local = local;
        this.unreachable = unreachable;
    }

    /** A BIFT from its parts, as another JVM sent it (the inverse of its accessors). */
    public static Bift of(String node, Map<String, FlatBitmap> fbms, String[] neighborOfBit, FlatBitmap local, FlatBitmap unreachable) {
        if (neighborOfBit.length != local.capacity() || unreachable.capacity() != local.capacity()) {
            throw new IllegalArgumentException("a BIFT's parts must share one capacity");
        }
        return new Bift(node, new LinkedHashMap<>(fbms), neighborOfBit.clone(), local, unreachable);
    }

    /** Builds the BIFT of {@code node} for {@code space} from the routing tables. */
    public static Bift build(Routing routing, String node, BitSpace space) {
        int n = space.capacity();
        Map<String, java.util.List<Integer>> bitsByNeighbor = new LinkedHashMap<>();
        String[] neighborOfBit = new String[n];
        java.util.List<Integer> local = new java.util.ArrayList<>();
        java.util.List<Integer> unreachable = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String endpoint = space.node(i);
            if (endpoint == null) {
                continue;
            }
            if (endpoint.equals(node)) {
                local.add(i);
                continue;
            }
            String hop = routing.nextHop(node, endpoint);
            if (hop == null) {
                unreachable.add(i);
                continue;
            }
            neighborOfBit[i] = hop;
            bitsByNeighbor.computeIfAbsent(hop, k -> new java.util.ArrayList<>()).add(i);
        }
        Map<String, FlatBitmap> fbms = new LinkedHashMap<>();
        bitsByNeighbor.forEach((nbr, bits) -> fbms.put(nbr, FlatBitmap.of(n, bits.stream().mapToInt(Integer::intValue).toArray())));
        return new Bift(node, fbms,
                neighborOfBit,
                FlatBitmap.of(n, local.stream().mapToInt(Integer::intValue).toArray()),
                FlatBitmap.of(n, unreachable.stream().mapToInt(Integer::intValue).toArray()));
    }

    public String node() {
        return node;
    }

    public int capacity() {
        return neighborOfBit.length;
    }

    /** The neighbour that bit {@code index} is forwarded to, or null (local, unreachable or unassigned). */
    public String neighborFor(int index) {
        return neighborOfBit[index];
    }

    /** F-BM of a neighbour: every bit forwarded through it. */
    public FlatBitmap forwardingBitmap(String neighbor) {
        return forwardingBitmaps.get(neighbor);
    }

    public Map<String, FlatBitmap> forwardingBitmaps() {
        return forwardingBitmaps;
    }

    /** Bits naming this node itself. */
    public FlatBitmap local() {
        return local;
    }

    /** Bits no neighbour reaches (a partitioned network). */
    public FlatBitmap unreachable() {
        return unreachable;
    }
}
