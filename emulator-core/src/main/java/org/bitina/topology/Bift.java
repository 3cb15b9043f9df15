package org.bitina.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.bitina.bitmap.FlatBitmap;

/**
 * A node's Bit Index Forwarding Table for one job's bit space (RFC 8279 section 6.4,
 * seed 000 requirement F3): for every neighbour, the forwarding bitmap (F-BM) of the bit
 * positions whose endpoints are reached through it; plus the positions that are this
 * node itself (local delivery) and those no neighbour reaches.
 *
 * <p>Kept compact, since a 65,536-endpoint job has a BIFT on thousands of nodes: one
 * two-byte neighbour number per bit, and none at all on a node whose bits all leave through
 * one neighbour (a host); the local and unreachable positions as sorted lists. F-BMs are
 * made from the numbers the first time a neighbour's is asked for.
 */
public final class Bift {
    private static final int[] NONE = new int[0];

    private final String node;
    private final int capacity;
    /** The neighbours bits leave through, in the order of their lowest bit. */
    private final String[] neighbors;
    /** hopOfBit[i]: 0 when bit i leaves through no neighbour, else the neighbour's number plus one; null with one neighbour at most. */
    private final char[] hopOfBit;
    /** With {@code hopOfBit} null: the positions that leave through no neighbour (sorted). */
    private final int[] noHop;

    private final int[] local;
    private final int[] unreachable;
    private final OnceArray<FlatBitmap> fbms;

    private Bift(
            String node,
            int capacity,
            String[] neighbors,
            char[] hopOfBit,
            int[] noHop,
            int[] local,
            int[] unreachable) {
        this.node = node;
        this.capacity = capacity;
        this.neighbors = neighbors;
        this.hopOfBit = hopOfBit;
        this.noHop = noHop;
        this.local = local;
        this.unreachable = unreachable;
        this.fbms = new OnceArray<>(neighbors.length);
    }

    /**
     * A BIFT from its parts, as another JVM sent it: the neighbour of every bit (null for
     * none), and the local and unreachable positions.
     */
    public static Bift of(String node, String[] neighborOfBit, int[] local, int[] unreachable) {
        for (int i : local) {
            if (i < 0 || i >= neighborOfBit.length) {
                throw new IllegalArgumentException(
                        "a BIFT's local bit " + i + " outside its capacity of " + neighborOfBit.length);
            }
        }
        for (int i : unreachable) {
            if (i < 0 || i >= neighborOfBit.length) {
                throw new IllegalArgumentException(
                        "a BIFT's unreachable bit " + i + " outside its capacity of " + neighborOfBit.length);
            }
        }
        return compact(node, neighborOfBit.length, i -> neighborOfBit[i], sorted(local), sorted(unreachable));
    }

    /** Builds the BIFT of {@code node} for {@code space} from the routing tables. */
    public static Bift build(Routing routing, String node, BitSpace space) {
        return buildAll(routing, List.of(node), space).get(node);
    }

    /**
     * The BIFTs of {@code nodes} for {@code space}, built on every core. A host on a single
     * switch sends every bit it does not hold to that switch: its BIFT has no per-bit table,
     * and the bits its switch cannot reach are found once per switch, not once per host.
     */
    public static Map<String, Bift> buildAll(Routing routing, List<String> nodes, BitSpace space) {
        Topology t = routing.topology();
        int n = space.capacity();
        int[] endpoint = new int[n];
        List<Integer> unassigned = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String e = space.node(i);
            endpoint[i] = e == null ? -1 : t.indexOf(e);
            if (e == null) {
                unassigned.add(i);
            }
        }
        Map<Integer, List<Integer>> positions = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (endpoint[i] >= 0) {
                positions.computeIfAbsent(endpoint[i], e -> new ArrayList<>()).add(i);
            }
        }
        Map<Integer, int[]> unreachableVia = new ConcurrentHashMap<>();
        Bift[] built = new Bift[nodes.size()];
        IntStream.range(0, nodes.size()).parallel().forEach(k -> {
            String node = nodes.get(k);
            int self = t.indexOf(node);
            int[] local = positions.getOrDefault(self, List.of()).stream()
                    .mapToInt(Integer::intValue)
                    .toArray();
            int up = routing.onlyLink(self);
            if (t.isHost(self) && up >= 0 && !t.isHost(up)) {
                int[] far = unreachableVia.computeIfAbsent(
                        up,
                        s -> IntStream.range(0, n)
                                .filter(i -> endpoint[i] >= 0 && endpoint[i] != s && !routing.reachable(s, endpoint[i]))
                                .toArray());
                int[] unreachable =
                        Arrays.stream(far).filter(i -> endpoint[i] != self).toArray();
                int[] noHop = IntStream.concat(
                                IntStream.concat(unassigned.stream().mapToInt(Integer::intValue), Arrays.stream(local)),
                                Arrays.stream(unreachable))
                        .sorted()
                        .toArray();
                String[] via = noHop.length == n
                        ? new String[0]
                        : new String[] {t.nodes().get(up).name()};
                built[k] = new Bift(node, n, via, null, noHop, local, unreachable);
                return;
            }
            int[] hops = routing.nextHops(self, endpoint);
            int[] numberOf = new int[t.size()];
            Arrays.fill(numberOf, -1);
            List<String> via = new ArrayList<>();
            List<Integer> unreachable = new ArrayList<>();
            char[] hopOfBit = new char[n];
            for (int i = 0; i < n; i++) {
                if (endpoint[i] < 0 || endpoint[i] == self) {
                    continue;
                }
                int h = hops[i];
                if (h < 0) {
                    unreachable.add(i);
                    continue;
                }
                if (numberOf[h] < 0) {
                    numberOf[h] = via.size();
                    via.add(t.nodes().get(h).name());
                }
                hopOfBit[i] = (char) (numberOf[h] + 1);
            }
            if (via.size() >= Character.MAX_VALUE) {
                throw new IllegalArgumentException("a BIFT of " + node + " with " + via.size() + " neighbours");
            }
            int[] far = unreachable.stream().mapToInt(Integer::intValue).toArray();
            if (via.size() <= 1) {
                int[] noHop =
                        IntStream.range(0, n).filter(i -> hopOfBit[i] == 0).toArray();
                built[k] = new Bift(node, n, via.toArray(new String[0]), null, noHop, local, far);
            } else {
                built[k] = new Bift(node, n, via.toArray(new String[0]), hopOfBit, NONE, local, far);
            }
        });
        Map<String, Bift> out = new LinkedHashMap<>();
        for (int k = 0; k < built.length; k++) {
            out.put(nodes.get(k), built[k]);
        }
        return out;
    }

    private static Bift compact(String node, int n, IntFunction<String> hop, int[] local, int[] unreachable) {
        Map<String, Integer> number = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String h = hop.apply(i);
            if (h != null) {
                number.putIfAbsent(h, number.size());
            }
        }
        if (number.size() >= Character.MAX_VALUE) {
            throw new IllegalArgumentException("a BIFT of " + node + " with " + number.size() + " neighbours");
        }
        String[] neighbors = number.keySet().toArray(new String[0]);
        if (neighbors.length <= 1) {
            int[] noHop =
                    IntStream.range(0, n).filter(i -> hop.apply(i) == null).toArray();
            return new Bift(node, n, neighbors, null, noHop, local, unreachable);
        }
        char[] hopOfBit = new char[n];
        for (int i = 0; i < n; i++) {
            String h = hop.apply(i);
            if (h != null) {
                hopOfBit[i] = (char) (number.get(h) + 1);
            }
        }
        return new Bift(node, n, neighbors, hopOfBit, NONE, local, unreachable);
    }

    private static int[] sorted(int[] a) {
        int[] c = a.clone();
        Arrays.sort(c);
        return c;
    }

    public String node() {
        return node;
    }

    public int capacity() {
        return capacity;
    }

    /** The neighbours bits leave through, numbered in the order of their lowest bit. */
    public List<String> neighbors() {
        return List.of(neighbors);
    }

    /** The number of the neighbour bit {@code index} is forwarded to, or -1 (local, unreachable or unassigned). */
    public int hopOf(int index) {
        if (index < 0 || index >= capacity) {
            throw new IndexOutOfBoundsException("bit " + index + " of a BIFT of " + capacity);
        }
        if (hopOfBit != null) {
            return hopOfBit[index] - 1;
        }
        return neighbors.length == 0 || Arrays.binarySearch(noHop, index) >= 0 ? -1 : 0;
    }

    /** The neighbour numbered {@code number} by {@link #hopOf(int)}. */
    public String neighbor(int number) {
        return neighbors[number];
    }

    /** The neighbour that bit {@code index} is forwarded to, or null (local, unreachable or unassigned). */
    public String neighborFor(int index) {
        int h = hopOf(index);
        return h < 0 ? null : neighbors[h];
    }

    /** True when bit {@code index} names this node itself. */
    public boolean isLocal(int index) {
        return Arrays.binarySearch(local, index) >= 0;
    }

    /** F-BM of a neighbour: every bit forwarded through it; null for a neighbour no bit leaves through. */
    public FlatBitmap forwardingBitmap(String neighbor) {
        for (int h = 0; h < neighbors.length; h++) {
            if (neighbors[h].equals(neighbor)) {
                FlatBitmap f = fbms.get(h);
                if (f == null) {
                    long[] words = new long[(capacity + 63) >>> 6];
                    for (int i = 0; i < capacity; i++) {
                        if (hopOf(i) == h) {
                            words[i >>> 6] |= 1L << (i & 63);
                        }
                    }
                    f = FlatBitmap.ofWords(capacity, words);
                    f = fbms.putIfAbsent(h, f);
                }
                return f;
            }
        }
        return null;
    }

    /** Every neighbour's F-BM, in neighbour order. */
    public Map<String, FlatBitmap> forwardingBitmaps() {
        Map<String, FlatBitmap> all = new LinkedHashMap<>();
        for (String n : neighbors) {
            all.put(n, forwardingBitmap(n));
        }
        return Collections.unmodifiableMap(all);
    }

    /** Bits naming this node itself. */
    public FlatBitmap local() {
        return FlatBitmap.of(capacity, local);
    }

    /** Bits no neighbour reaches (a partitioned network). */
    public FlatBitmap unreachable() {
        return FlatBitmap.of(capacity, unreachable);
    }

    /** The positions of {@link #local()}, sorted. */
    public int[] localBits() {
        return local.clone();
    }

    /** The positions of {@link #unreachable()}, sorted. */
    public int[] unreachableBits() {
        return unreachable.clone();
    }
}
