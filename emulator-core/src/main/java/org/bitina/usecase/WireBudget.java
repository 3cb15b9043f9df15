package org.bitina.usecase;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.JobSpec;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.Replicator;
import org.bitina.scenario.Scenario;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Link;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.wire.PacketCodec;

/**
 * The MTU of every link against the largest packet a job puts on it, its endpoint set in the
 * job's encoding (seed 000 section 7, H2, H3): a flat 65,536-bit bitmap is 8 KiB and fits no
 * 4 KiB link, while the same job's hierarchical sets below a pod are a few hundred bytes. The
 * one place the MTU is checked at plan time, for every kind and mode; a packet that slips
 * through (a repaired tree, an attack) is still dropped and counted by the link.
 *
 * <p>Per tree of a phase, the sets each link carries: upward, a VAT node's A-BM on the route to
 * its parent and a member's own bit on the route to its lowest VAT node; downward, the copies the
 * replication step ({@link Replicator}) makes over the installed BIFTs from each of the phase's
 * roots (a result, data, dispatches); for trees the packets install (C-BMs, INC trees,
 * self-installed ACKs), the same copies' sets on the way back; for a phase without BIFTs (a host
 * baseline), the whole member set on every route between its members and its roots (or, with no
 * root, each member's ring neighbour). A kind whose packets name at most K endpoints (MoE's top-K)
 * gets, per link, the largest encoding of any K of the endpoints that link can carry.
 *
 * <p>S6's fallback ring ({@link Packets#ringProvenance}) sends a contribution host to host among the
 * members a failed result held, with the whole ring's set and a flat provenance: its largest packet
 * is held to the smallest MTU, as the ring is whichever members that result held. Not counted: the
 * flat provenance a partial result (one that misses members) carries on its way down; a job whose
 * full result just fits may lose its partial results to the link's MTU drop.
 */
public final class WireBudget {
    private WireBudget() {}

    /**
     * What a job's packets carry besides header, endpoint set and tag.
     *
     * @param upBytes        payload of its aggregation packets (contributions, ACKs, combines)
     * @param downBytes      payload of its multicast packets (results, data, dispatches)
     * @param maxEndpoints   the most endpoints one packet names ({@code Integer.MAX_VALUE}: any)
     * @param upRetracesDown whether aggregation packets also climb the trees the multicast packets install
     * @param ringProvenance the flat provenance S6's fallback ring packets carry beside a contribution ({@code upBytes}); 0: no such ring
     * @param key            the job's key the problem is placed at ({@code data.chunk}, {@code moe.hidden})
     */
    public record Packets(
            long upBytes, long downBytes, int maxEndpoints, boolean upRetracesDown, long ringProvenance, String key) {
        long largest() {
            return Math.max(upBytes, downBytes);
        }
    }

    /** A job whose packet does not fit a link it crosses; {@code message} names the link, the encoding and the sizes. */
    public record Excess(JobSpec job, String key, String message) {}

    /**
     * The jobs of {@code s} that put a packet on a link whose MTU it exceeds, one finding per job.
     * A job whose largest conceivable packet (its whole bit space in its encoding) fits the
     * smallest MTU is not planned; the others are planned over {@code s}'s routing and checked link by link.
     *
     * @param packets what each job's packets carry (its use case's {@link UseCase#packets})
     * @param plan    the phases of {@code s} over a routing (every use case's plan)
     */
    public static List<Excess> check(
            Scenario s, Function<JobSpec, Packets> packets, Function<Routing, List<Phase>> plan) {
        int minMtu = s.topology().links().stream()
                .mapToInt(l -> l.spec().mtu())
                .min()
                .orElse(Integer.MAX_VALUE);
        int tag = s.security().tagBytes();
        Set<String> doubtful = new LinkedHashSet<>();
        List<Excess> out = new ArrayList<>();
        Set<String> found = new HashSet<>();
        for (JobSpec job : s.jobs()) {
            Packets p = packets.apply(job);
            String ring = ring(job, p, minMtu, tag);
            if (ring != null) {
                found.add(job.name());
                out.add(new Excess(job, p.key(), "job " + job.name() + " (ina): " + ring));
                continue;
            }
            BitSpace space = job.common().bitSpace();
            EncodingSpec enc = job.common().encoding();
            FlatBitmap all = FlatBitmap.full(space.capacity());
            long bound = fixedBytes(p.largest(), tag) + largestSetBytes(all, p.maxEndpoints(), enc);
            if (bound > minMtu) {
                doubtful.add(job.name());
            }
        }
        if (doubtful.isEmpty()) {
            return out;
        }
        Routing routing = Routing.compute(s.topology());
        for (Phase phase : plan.apply(routing)) {
            JobSpec job = phase.job();
            if (!doubtful.contains(job.name()) || found.contains(job.name())) {
                continue;
            }
            Packets p = packets.apply(job);
            String m = check(phase, s.topology(), routing, p, tag);
            if (m != null) {
                found.add(job.name());
                out.add(new Excess(job, p.key(), "job " + job.name() + " (" + phase.mode() + "): " + m));
            }
        }
        return out;
    }

    /**
     * The first link of {@code phase}'s trees whose MTU one of its packets exceeds, said in full;
     * null when every packet fits. {@code tagBytes}: the scenario's ({@link Scenario.Security#tagBytes}).
     */
    public static String check(Phase phase, Topology topology, Routing routing, Packets packets, int tagBytes) {
        EncodingSpec enc = phase.job().common().encoding();
        for (Phase.Tree tree : phase.trees()) {
            Loads loads = new Loads(enc, packets.maxEndpoints(), topology);
            boolean bifts = tree.tables().values().stream().anyMatch(t -> t.bift() != null);
            boolean vat = tree.tables().values().stream().anyMatch(t -> t.registered() != null);
            EndpointSet all = membersOf(tree.bitSpace(), phase.job());
            if (vat) {
                upward(tree, routing, loads);
            }
            if (bifts) {
                for (String root : phase.roots() == null ? List.<String>of() : phase.roots()) {
                    JobTables t = tree.tables().get(root);
                    if (t != null && t.bift() != null) {
                        downward(
                                tree,
                                root,
                                t.registered() != null ? t.registered() : all,
                                loads,
                                packets.upRetracesDown());
                    }
                }
            } else if (!vat) {
                bare(phase, routing, all, loads);
            }
            String m = loads.excess(topology, packets, tagBytes);
            if (m != null) {
                return (phase.more().isEmpty() ? "" : "tree " + tree.name() + ": ") + m;
            }
        }
        return null;
    }

    /** A fallback ring packet of {@code job} that exceeds the smallest MTU, said in full; null when it fits or there is no ring. */
    private static String ring(JobSpec job, Packets p, int minMtu, int tag) {
        if (p.ringProvenance() == 0) {
            return null;
        }
        int set = largestSetBytes(
                FlatBitmap.full(job.common().bitSpace().capacity()),
                Integer.MAX_VALUE,
                job.common().encoding());
        long size = fixedBytes(p.upBytes() + p.ringProvenance(), tag) + set;
        if (size <= minMtu) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "a fallback ring packet (S6) carries its ring as a set of %d bytes and a flat provenance of"
                        + " %d bytes: %d header + %d set + %d provenance + %d payload + %d tag = %d bytes, more than the smallest link MTU of %d"
                        + " bytes (a smaller chunk or a larger MTU)",
                set,
                p.ringProvenance(),
                PacketCodec.HEADER_BYTES,
                set,
                p.ringProvenance(),
                p.upBytes(),
                tag,
                size,
                minMtu);
    }

    /** The encoded endpoint-set bytes a packet of this job carries at most when it names at most {@code k} of {@code set}. */
    public static int setBytes(EndpointSet set, int k, EncodingSpec enc) {
        return PacketCodec.setBodyBytes(worst(set, k, enc));
    }

    /**
     * The encoded endpoint-set bytes a packet of this job carries at most on any link when it
     * names at most {@code k} of {@code set}: the larger of a host link's and a switch-to-switch
     * link's (they differ when the job translates at the fabric's edge).
     */
    public static int largestSetBytes(EndpointSet set, int k, EncodingSpec enc) {
        return Math.max(setBytes(set, k, enc.onLink(true, false)), setBytes(set, k, enc.onLink(false, false)));
    }

    /** Header, payload and tag ({@code tagBytes}: none with {@code security.mac = off}): all of a packet but its endpoint set. */
    private static long fixedBytes(long payload, int tagBytes) {
        return PacketCodec.HEADER_BYTES + payload + tagBytes;
    }

    /**
     * The subset of {@code set} with at most {@code k} members whose encoding is largest, in
     * {@code enc}: all of it when {@code k} allows; else one member from as many blocks as
     * possible (a hierarchical set pays per block), then the lowest of the rest.
     */
    static EndpointSet worst(EndpointSet set, int k, EncodingSpec enc) {
        if (set.cardinality() <= k) {
            return set.to(enc.encoding(), enc.blockSize());
        }
        int block = enc.blockSize();
        int[] members = set.indices();
        boolean[] taken = new boolean[members.length];
        List<Integer> pick = new ArrayList<>();
        int lastBlock = -1;
        for (int i = 0; i < members.length && pick.size() < k; i++) {
            if (members[i] / block != lastBlock) {
                lastBlock = members[i] / block;
                pick.add(members[i]);
                taken[i] = true;
            }
        }
        for (int i = 0; i < members.length && pick.size() < k; i++) {
            if (!taken[i]) {
                pick.add(members[i]);
            }
        }
        return FlatBitmap.of(
                        set.capacity(),
                        pick.stream().mapToInt(Integer::intValue).toArray())
                .to(enc.encoding(), block);
    }

    /** The positions of {@code space} the job's members hold (all of them when none is a member: a second stage's roots). */
    private static EndpointSet membersOf(BitSpace space, JobSpec job) {
        Set<String> members = new HashSet<>(job.common().members());
        List<Integer> bits = new ArrayList<>();
        for (int i = 0; i < space.capacity(); i++) {
            String e = space.endpoint(i);
            if (e != null && (members.contains(e) || members.contains(space.node(i)))) {
                bits.add(i);
            }
        }
        return bits.isEmpty()
                ? FlatBitmap.full(space.capacity())
                : FlatBitmap.of(
                        space.capacity(),
                        bits.stream().mapToInt(Integer::intValue).toArray());
    }

    /** A VAT node's A-BM on the route to its parent; a member's own bit on the route to the lowest VAT node holding it. */
    private static void upward(Phase.Tree tree, Routing routing, Loads loads) {
        Map<String, EndpointSet> below = new HashMap<>();
        tree.tables().forEach((n, t) -> {
            if (t.registered() != null && t.vatParent() != null) {
                loads.along(routing.path(n, t.vatParent()), t.registered(), true);
                below.merge(t.vatParent(), t.registered(), EndpointSet::or);
            }
        });
        BitSpace space = tree.bitSpace();
        tree.tables().forEach((n, t) -> {
            if (t.registered() == null) {
                return;
            }
            EndpointSet direct = below.containsKey(n) ? t.registered().andNot(below.get(n)) : t.registered();
            for (int i = direct.nextSetBit(0); i >= 0; i = direct.nextSetBit(i + 1)) {
                String from = space.node(i);
                if (from != null && !from.equals(n)) {
                    loads.along(routing.path(from, n), FlatBitmap.of(space.capacity(), i), true);
                }
            }
        });
    }

    /** The copies of {@code set} from {@code root} over the tree's BIFTs, each on its link (and back, for trees the packets install). */
    private static void downward(Phase.Tree tree, String root, EndpointSet set, Loads loads, boolean back) {
        ArrayDeque<Object[]> todo = new ArrayDeque<>();
        todo.add(new Object[] {root, set});
        // no node is visited twice by one copy: each hop is one step nearer every bit it carries
        while (!todo.isEmpty()) {
            Object[] at = todo.poll();
            String node = (String) at[0];
            JobTables t = tree.tables().get(node);
            if (t == null || t.bift() == null) {
                continue;
            }
            for (Replicator.Copy c :
                    Replicator.replicate((EndpointSet) at[1], t.bift()).copies()) {
                loads.on(node, c.neighbor(), c.bitmap(), false);
                if (back) {
                    loads.on(c.neighbor(), node, c.bitmap(), true);
                }
                todo.add(new Object[] {c.neighbor(), c.bitmap()});
            }
        }
    }

    /** A host baseline: the whole member set both ways between each member and each root, or its ring neighbour. */
    private static void bare(Phase phase, Routing routing, EndpointSet all, Loads loads) {
        List<String> members = phase.job().common().members();
        List<String> roots = phase.roots() == null ? List.of() : phase.roots();
        for (int i = 0; i < members.size(); i++) {
            String m = members.get(i);
            if (roots.isEmpty()) {
                loads.along(routing.path(m, members.get((i + 1) % members.size())), all, true);
            }
            for (String r : roots) {
                if (!r.equals(m)) {
                    loads.along(routing.path(m, r), all, true);
                    loads.along(routing.path(r, m), all, false);
                }
            }
        }
    }

    /** The largest endpoint set seen per directed link and direction, encoded as the job's packets carry it. */
    private static final class Loads {
        private final EncodingSpec enc;
        private final int k;
        private final Topology topology;
        private final Map<String, Load> byLink = new HashMap<>();

        Loads(EncodingSpec enc, int k, Topology topology) {
            this.enc = enc;
            this.k = k;
            this.topology = topology;
        }

        record Load(String from, String to, boolean up, int bytes, EndpointSet set, EncodingSpec enc) {}

        void along(List<String> path, EndpointSet set, boolean up) {
            for (int i = 0; i + 1 < path.size(); i++) {
                on(path.get(i), path.get(i + 1), set, up);
            }
        }

        void on(String from, String to, EndpointSet set, boolean up) {
            String key = from + '\u0000' + to + (up ? "^" : "v");
            Load old = byLink.get(key);
            if (old != null && old.set().cardinality() >= set.cardinality() && set.isSubsetOf(old.set())) {
                return;
            }
            EncodingSpec e = enc.onLink(isHost(from), isHost(to));
            EndpointSet w = worst(set, k, e);
            int bytes = PacketCodec.setBodyBytes(w);
            if (old == null || bytes > old.bytes()) {
                byLink.put(key, new Load(from, to, up, bytes, w, e));
            }
        }

        private boolean isHost(String n) {
            return topology.has(n) && topology.node(n).isHost();
        }

        /** The worst excess over a link's MTU, said with the link, the encoding and the sizes; null when all fit. */
        String excess(Topology topology, Packets packets, int tag) {
            Load worst = null;
            long worstOver = 0;
            int worstMtu = 0;
            for (Load l : byLink.values()) {
                Link link = topology.linkBetween(l.from(), l.to()).orElse(null);
                if (link == null) {
                    continue;
                }
                long size = fixedBytes(l.up() ? packets.upBytes() : packets.downBytes(), tag) + l.bytes();
                long over = size - link.spec().mtu();
                if (over > worstOver
                        || (over > 0
                                && over == worstOver
                                && worst != null
                                && (l.from() + l.to()).compareTo(worst.from() + worst.to()) < 0)) {
                    worst = l;
                    worstOver = over;
                    worstMtu = link.spec().mtu();
                }
            }
            if (worst == null) {
                return null;
            }
            long payload = worst.up() ? packets.upBytes() : packets.downBytes();
            return String.format(
                    Locale.ROOT,
                    "%s packet on link %s -> %s carries %d endpoints as a %s set of %d bytes: %d header + %d"
                            + " set + %d payload + %d tag = %d bytes, more than the link's MTU of %d bytes%s",
                    worst.up() ? "an aggregation" : "a multicast",
                    worst.from(),
                    worst.to(),
                    worst.set().cardinality(),
                    worst.enc().describe(),
                    worst.bytes(),
                    PacketCodec.HEADER_BYTES,
                    worst.bytes(),
                    payload,
                    tag,
                    fixedBytes(payload, tag) + worst.bytes(),
                    worstMtu,
                    hint(worst.enc()));
        }
    }

    private static String hint(EncodingSpec e) {
        return e.encoding() == Encoding.FLAT
                ? " (a smaller payload, a larger MTU, or encoding = hierarchical or node-list)"
                : " (a smaller payload or a larger MTU)";
    }
}
