package org.bitina.run;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * An independent, event-ordered model of an AllReduce's modelled completion time (INA, ring,
 * parameter server), written from the link rules of docs/architecture.md "Two clocks" and the
 * protocols as the README and the drivers describe them. Pure Java: no Pekko and no emulator
 * class (not even for routing, trees or packet sizes), so that it can check the emulator.
 *
 * <p>Link rule: each direction of a link is a port owned by its sender; a packet put on it at
 * modelled time t departs at max(t, busyUntil), then busyUntil = departure + ceil(bytes * 8 *
 * 1e9 / bandwidth) ns, and it arrives busyUntil + latency later. Nodes forward, replicate,
 * aggregate and answer in zero time. An aggregation completes at its latest contribution's
 * arrival (unless {@link Network#processing} holds a switch's sends). Events (packet arrivals) run in modelled-time order, so everything reaches a port
 * in modelled-time order. Arrivals at one instant (the only choice left, and it matters where
 * several of them queue for one port) run in the virtual clock's order ({@code LocalEvents}:
 * the sending node's name, then that sender's own send order). What a node does
 * for one arrival (local deliveries included, e.g. a parameter server answering a worker on
 * its own host) happens synchronously, nested, as on a device that handles one frame at once.
 *
 * <p>Packet size (replicating {@code PacketCodec.encodedSize}'s formula for the packets these
 * protocols send, which is checked against the codec in the test): a 40-byte fixed header, the
 * flat endpoint bitmap of ceil(members / 8) bytes, and the chunk's elements; no provenance
 * (nothing is partial here) and no authentication tag.
 *
 * <p>Rules mirrored from the emulator's code where the descriptions leave a choice:
 * <ul>
 * <li>Routing: hop-count shortest paths, never through a host; among equal-cost next hops v
 * toward d (candidates in the order of v's links as declared) the one at index
 * ecmp(v, d) = mix(hash(v) * 0x9E3779B97F4A7C15 + hash(d)) mod n ({@code Routing.ecmpIndex}).
 * Unicast packets follow these next hops hop by hop; a BIER multicast sends, per distinct next
 * hop toward its bits' hosts, one copy with the bits that next hop serves.</li>
 * <li>Automatic VAT ({@code tree { mode = auto, root = R }}): the members' routed paths toward R
 * form an in-tree; VAT nodes are R and every node entered from two or more distinct children;
 * a member's (or VAT node's) VAT parent is the nearest VAT node above it on its path.</li>
 * <li>INA and PS workers: at time 0 each sends chunks 0..window-1 (in order, one port); the
 * first result of a chunk it has in flight releases exactly one chunk, the lowest not yet sent,
 * sent at that result's arrival time ({@code AllReduceWorker.onDeliver/sendNext}).</li>
 * <li>INA: a contribution reaching a VAT node whose A-BM meets its bitmap is terminated there;
 * when the OR of what it holds equals its A-BM, it sends one contribution (bitmap = its A-BM)
 * routed toward its VAT parent, or, at the root, multicasts the result to its A-BM.</li>
 * <li>PS: the server is the tree root when that is a host, else the first non-member host, else
 * the first member; it answers a complete chunk with one unicast per member, in member order
 * (a member on its own host gets it at once, and may send its next chunk to it at once).</li>
 * <li>Ring: members in order; chunk c is owned by member c mod N; at time 0 the owner's
 * successor's share of each such chunk falls due; a member adds its share and its send falls
 * due, the owner completes it and its all-gather send falls due; a member's send of a complete
 * chunk falls due unless its successor is the owner. A member acknowledges each data packet at
 * once (40 bytes and the bitmap, back to the sender, before anything it sends for it) and has at
 * most a window of data packets unacknowledged: due sends wait, lowest chunk first, then in the
 * order they fell due ({@code ScheduleWorker}).</li>
 * <li>Completion: each member's time is its last accepted result's arrival (INA/PS) or its last
 * chunk stored (ring); the job's modelled time is the latest over the members.</li>
 * </ul>
 */
final class ModelledTimeModel {
    private ModelledTimeModel() {}

    /** One link's properties, the same both ways. */
    record Spec(long latencyNanos, long bandwidthBps) {
        long serialisationNanos(long bytes) {
            // ceil(bytes * 8 * 1e9 / bandwidth)
            long bits = bytes * 8L * 1_000_000_000L;
            return (bits + bandwidthBps - 1) / bandwidthBps;
        }
    }

    /** A network: nodes (hosts or switches) and links in declaration order, with shortest-path ECMP routing. */
    static final class Network {
        private final List<String> nodes = new ArrayList<>();
        private final Map<String, Boolean> isHost = new HashMap<>();
        private final Map<String, List<String>> adjacency = new HashMap<>();
        private final Map<String, Spec> specs = new HashMap<>();
        private final List<String[]> links = new ArrayList<>();
        private Map<String, Map<String, Integer>> distTo;
        private long processingNanos;

        /** Every switch holds each packet it sends this long before its port (the optional {@code processing}). */
        Network processing(long nanos) {
            processingNanos = nanos;
            return this;
        }

        Network host(String name) {
            return node(name, true);
        }

        Network sw(String name) {
            return node(name, false);
        }

        private Network node(String name, boolean host) {
            nodes.add(name);
            isHost.put(name, host);
            adjacency.put(name, new ArrayList<>());
            return this;
        }

        Network link(String a, String b, Spec spec) {
            adjacency.get(a).add(b);
            adjacency.get(b).add(a);
            specs.put(a + ">" + b, spec);
            specs.put(b + ">" + a, spec);
            links.add(new String[] {a, b});
            distTo = null;
            return this;
        }

        List<String> hosts() {
            return nodes.stream().filter(isHost::get).toList();
        }

        List<String> nodes() {
            return List.copyOf(nodes);
        }

        List<String[]> links() {
            return List.copyOf(links);
        }

        boolean isHost(String n) {
            return isHost.get(n);
        }

        Spec spec(String from, String to) {
            return specs.get(from + ">" + to);
        }

        /** The virtual clock's window: the smallest link latency plus one nanosecond. */
        long lookahead() {
            return specs.values().stream().mapToLong(Spec::latencyNanos).min().orElse(0) + 1;
        }

        /** Hop counts toward each destination; a host is an endpoint, never a transit hop. */
        private Map<String, Integer> dist(String d) {
            if (distTo == null) {
                distTo = new HashMap<>();
            }
            return distTo.computeIfAbsent(d, x -> {
                Map<String, Integer> dist = new HashMap<>();
                dist.put(d, 0);
                ArrayDeque<String> q = new ArrayDeque<>(List.of(d));
                while (!q.isEmpty()) {
                    String v = q.poll();
                    if (!v.equals(d) && isHost(v)) {
                        continue;
                    }
                    for (String u : adjacency.get(v)) {
                        if (!dist.containsKey(u)) {
                            dist.put(u, dist.get(v) + 1);
                            q.add(u);
                        }
                    }
                }
                return dist;
            });
        }

        /** The next hop from v toward d: among the equal-cost ones (v's link order), the ECMP hash's pick. */
        String nextHop(String v, String d) {
            if (v.equals(d)) {
                return v;
            }
            Map<String, Integer> dist = dist(d);
            int dv = dist.get(v);
            List<String> candidates = new ArrayList<>();
            for (String u : adjacency.get(v)) {
                if ((u.equals(d) || !isHost(u)) && dist.containsKey(u) && dist.get(u) == dv - 1) {
                    candidates.add(u);
                }
            }
            return candidates.get(ecmp(v, d, candidates.size()));
        }

        List<String> path(String from, String to) {
            List<String> p = new ArrayList<>(List.of(from));
            for (String at = from; !at.equals(to); ) {
                at = nextHop(at, to);
                p.add(at);
            }
            return p;
        }

        private static int ecmp(String node, String destination, int choices) {
            if (choices == 1) {
                return 0;
            }
            long h = node.hashCode() * 0x9E3779B97F4A7C15L + destination.hashCode();
            h ^= h >>> 33;
            h *= 0xFF51AFD7ED558CCDL;
            h ^= h >>> 33;
            return (int) Math.floorMod(h, (long) choices);
        }
    }

    /** One switch {@code sw} with a link to each host, in the order given; a host without a spec of its own takes {@code dflt}. */
    static Network star(String sw, List<String> hosts, Spec dflt, Map<String, Spec> own) {
        Network n = new Network().sw(sw);
        hosts.forEach(n::host);
        hosts.forEach(h -> n.link(sw, h, own.getOrDefault(h, dflt)));
        return n;
    }

    /**
     * The k-ary fat-tree with the generator's names and link order: per pod p, for each
     * aggregation switch agg-p-i its links to core-((i-1)k/2+j) and edge-p-j (j = 1..k/2,
     * alternating), then the edges' links to the pod's hosts h1.. numbered edge by edge.
     */
    static Network fatTree(int k, Spec spec) {
        int half = k / 2;
        Network n = new Network();
        for (int c = 1; c <= half * half; c++) {
            n.sw("core-" + c);
        }
        List<String[]> links = new ArrayList<>();
        int host = 1;
        for (int p = 1; p <= k; p++) {
            for (int i = 1; i <= half; i++) {
                n.sw("agg-" + p + "-" + i);
            }
            for (int i = 1; i <= half; i++) {
                n.sw("edge-" + p + "-" + i);
            }
            for (int i = 1; i <= half; i++) {
                for (int j = 1; j <= half; j++) {
                    links.add(new String[] {"agg-" + p + "-" + i, "core-" + ((i - 1) * half + j)});
                    links.add(new String[] {"agg-" + p + "-" + i, "edge-" + p + "-" + j});
                }
            }
            for (int i = 1; i <= half; i++) {
                for (int j = 0; j < half; j++) {
                    String h = "h" + host++;
                    n.host(h);
                    links.add(new String[] {"edge-" + p + "-" + i, h});
                }
            }
        }
        links.forEach(l -> n.link(l[0], l[1], spec));
        return n;
    }

    /** An AllReduce job: members (bit i = member i), data cut into chunks, a window of chunks in flight. */
    record Job(List<String> members, int elements, int chunk, int window, int elementBytes) {
        int chunks() {
            return (elements + chunk - 1) / chunk;
        }

        int bytes(int c) {
            int len = Math.min(chunk, elements - c * chunk);
            return 40 + (members.size() + 7) / 8 + len * elementBytes;
        }

        long all() {
            return members.size() == 64 ? -1L : (1L << members.size()) - 1;
        }
    }

    /** What a run of the model gives: the completion time, and packets and bytes per directed link. */
    record Outcome(long completionNanos, Map<String, long[]> links) {}

    enum Kind {
        CONTRIBUTION,
        RESULT,
        UNICAST,
        /** A host baseline's acknowledgement: the data packet's chunk and bitmap, no payload. */
        ACK
    }

    /** A packet: its chunk, bitmap, underlay destination (null: a BIER multicast by its bitmap) and size. */
    record Packet(Kind kind, int chunk, long bits, String dest, int bytes) {
        Packet withBits(long b) {
            return new Packet(kind, chunk, b, dest, bytes);
        }
    }

    /** A packet reaching {@code node} from {@code from} at time t; {@code order} counts sends, so one sender's stay in its order. */
    private record Arrival(long t, String from, long order, String node, Packet p) {}

    /** The event loop, the ports and the forwarding every mode shares; a mode adds its endpoints. */
    private abstract static class Sim {
        final Network net;
        final Job job;
        final Map<String, Integer> bitOf = new HashMap<>();
        final long[] lastVt;
        private final PriorityQueue<Arrival> events = new PriorityQueue<>((a, b) -> {
            int c = Long.compare(a.t, b.t);
            if (c == 0) {
                c = a.from.compareTo(b.from);
            }
            return c != 0 ? c : Long.compare(a.order, b.order);
        });
        private long order;
        private final Map<String, Long> busyUntil = new HashMap<>();
        final Map<String, long[]> linkCounts = new LinkedHashMap<>();

        Sim(Network net, Job job) {
            this.net = net;
            this.job = job;
            for (int i = 0; i < job.members().size(); i++) {
                bitOf.put(job.members().get(i), i);
            }
            this.lastVt = new long[job.members().size()];
        }

        long bit(String member) {
            return 1L << bitOf.get(member);
        }

        /** A port: queueing behind busy-until, serialisation, then propagation. */
        void send(String from, String to, Packet p, long t) {
            Spec s = net.spec(from, to);
            if (!net.isHost(from)) {
                t += net.processingNanos;
            }
            long departure = Math.max(t, busyUntil.getOrDefault(from + ">" + to, 0L));
            long busy = departure + s.serialisationNanos(p.bytes());
            busyUntil.put(from + ">" + to, busy);
            long[] c = linkCounts.computeIfAbsent(from + ">" + to, k -> new long[2]);
            c[0]++;
            c[1] += p.bytes();
            events.add(new Arrival(busy + s.latencyNanos(), from, order++, to, p));
        }

        /** Toward the packet's destination by unicast routing, or to this node's endpoints. */
        void route(String at, Packet p, long t) {
            if (p.dest().equals(at)) {
                deliver(at, p, t);
            } else {
                send(at, net.nextHop(at, p.dest()), p, t);
            }
        }

        /** BIER: bits of this host are delivered; the rest go out one copy per distinct next hop, lowest bit first. */
        void multicast(String at, Packet p, long t) {
            long remaining = p.bits();
            Integer mine = bitOf.get(at);
            if (mine != null && (remaining & (1L << mine)) != 0) {
                remaining &= ~(1L << mine);
                deliver(at, p.withBits(1L << mine), t);
            }
            while (remaining != 0) {
                int k = Long.numberOfTrailingZeros(remaining);
                String hop = net.nextHop(at, job.members().get(k));
                long fbm = 0;
                for (int b = 0; b < job.members().size(); b++) {
                    if (net.nextHop(at, job.members().get(b)).equals(hop)) {
                        fbm |= 1L << b;
                    }
                }
                send(at, hop, p.withBits(remaining & fbm), t);
                remaining &= ~fbm;
            }
        }

        /** A packet at a node: arrived, or originated by an endpoint there. */
        void at(String node, Packet p, long t) {
            if (p.dest() == null) {
                multicast(node, p, t);
            } else if (!intercept(node, p, t)) {
                route(node, p, t);
            }
        }

        /** A node that terminates the packet here (an INA VAT node); false to route it. */
        boolean intercept(String node, Packet p, long t) {
            return false;
        }

        abstract void deliver(String host, Packet p, long t);

        abstract void start();

        /** Every member has everything: the phase ends with the virtual clock's window it happened in. */
        boolean allDone() {
            return false;
        }

        Outcome run() {
            start();
            // windows as the virtual clock runs them: each starts at the earliest pending arrival and lasts the
            // lookahead; the phase ends with the window in which every member finished (what is still on its
            // way then, a baseline's last acknowledgements, never reaches the next link)
            long lookahead = net.lookahead();
            long windowEnd = Long.MIN_VALUE;
            boolean finished = allDone();
            while (!events.isEmpty()) {
                if (events.peek().t() >= windowEnd) {
                    if (finished) {
                        break;
                    }
                    windowEnd = events.peek().t() + lookahead;
                }
                Arrival a = events.poll();
                at(a.node(), a.p(), a.t());
                finished |= allDone();
            }
            checkFinished();
            long end = 0;
            for (long v : lastVt) {
                end = Math.max(end, v);
            }
            return new Outcome(end, linkCounts);
        }

        abstract void checkFinished();
    }

    /** The INA and PS worker: a window of chunks in flight toward {@code uplink}. */
    private static final class Worker {
        final String host;
        final String uplink;
        final boolean[] have;
        final boolean[] inFlight;
        int next;
        int got;

        Worker(String host, String uplink, int chunks) {
            this.host = host;
            this.uplink = uplink;
            this.have = new boolean[chunks];
            this.inFlight = new boolean[chunks];
        }
    }

    /** Workers of the INA and PS modes. */
    private abstract static class WindowedSim extends Sim {
        final Map<String, Worker> workers = new LinkedHashMap<>();

        WindowedSim(Network net, Job job, Map<String, String> uplinks) {
            super(net, job);
            job.members().forEach(m -> workers.put(m, new Worker(m, uplinks.get(m), job.chunks())));
        }

        void startWorkers() {
            for (Worker w : workers.values()) {
                while (w.next < Math.min(job.window(), job.chunks())) {
                    contribute(w, w.next++, 0);
                }
            }
        }

        void contribute(Worker w, int c, long t) {
            w.inFlight[c] = true;
            at(w.host, new Packet(Kind.CONTRIBUTION, c, bit(w.host), w.uplink, job.bytes(c)), t);
        }

        /** A result for the worker on {@code host}: the first one of a chunk in flight sends the next chunk. */
        void result(String host, int c, long t) {
            Worker w = workers.get(host);
            if (w.have[c]) {
                return;
            }
            w.have[c] = true;
            w.got++;
            lastVt[bitOf.get(host)] = Math.max(lastVt[bitOf.get(host)], t);
            if (w.inFlight[c]) {
                w.inFlight[c] = false;
                if (w.next < job.chunks()) {
                    contribute(w, w.next++, t);
                }
            }
        }

        @Override
        void checkFinished() {
            workers.values().forEach(w -> {
                if (w.got != job.chunks()) {
                    throw new IllegalStateException(
                            "model: " + w.host + " got " + w.got + " of " + job.chunks() + " chunks");
                }
            });
        }
    }

    /** The automatic VAT: parents and A-BMs. */
    record Vat(String root, Map<String, String> parent, Map<String, Long> aBm) {}

    static Vat autoVat(Network net, Job job, String root) {
        Map<String, String> up = new LinkedHashMap<>();
        Map<String, Set<String>> below = new LinkedHashMap<>();
        for (String m : job.members()) {
            List<String> path = net.path(m, root);
            for (int i = 1; i < path.size(); i++) {
                up.put(path.get(i - 1), path.get(i));
                below.computeIfAbsent(path.get(i), k -> new LinkedHashSet<>()).add(path.get(i - 1));
            }
        }
        Set<String> vatNodes = new LinkedHashSet<>();
        vatNodes.add(root);
        below.forEach((n, kids) -> {
            if (kids.size() > 1) {
                vatNodes.add(n);
            }
        });
        Map<String, String> parent = new LinkedHashMap<>();
        Map<String, Long> aBm = new LinkedHashMap<>();
        vatNodes.forEach(v -> aBm.put(v, 0L));
        for (int i = 0; i < job.members().size(); i++) {
            String m = job.members().get(i);
            String prev = m;
            for (String at = up.get(m); ; at = up.get(at)) {
                if (vatNodes.contains(at)) {
                    parent.putIfAbsent(prev, at);
                    prev = at;
                    aBm.merge(at, 1L << i, (a, b) -> a | b);
                }
                if (at.equals(root)) {
                    break;
                }
            }
        }
        return new Vat(root, parent, aBm);
    }

    /** INA over the automatic VAT rooted at {@code root}. */
    static Outcome ina(Network net, Job job, String root) {
        Vat vat = autoVat(net, job, root);
        Map<String, Long> held = new HashMap<>();
        return new WindowedSim(net, job, vat.parent()) {
            @Override
            void start() {
                startWorkers();
            }

            @Override
            boolean intercept(String node, Packet p, long t) {
                Long aBm = vat.aBm().get(node);
                if (p.kind() != Kind.CONTRIBUTION || aBm == null || (aBm & p.bits()) == 0) {
                    return false;
                }
                long now = held.merge(node + "#" + p.chunk(), p.bits(), (a, b) -> a | b);
                if (now == aBm) {
                    // complete at this, its latest, contribution's arrival
                    if (node.equals(vat.root())) {
                        multicast(node, new Packet(Kind.RESULT, p.chunk(), aBm, null, p.bytes()), t);
                    } else {
                        route(
                                node,
                                new Packet(
                                        Kind.CONTRIBUTION,
                                        p.chunk(),
                                        aBm,
                                        vat.parent().get(node),
                                        p.bytes()),
                                t);
                    }
                }
                return true;
            }

            @Override
            void deliver(String host, Packet p, long t) {
                if (p.kind() == Kind.RESULT) {
                    result(host, p.chunk(), t);
                }
            }
        }.run();
    }

    /** The parameter server's host: the tree root when a host, else the first host not a member, else the first member. */
    static String psHost(Network net, Job job, String treeRoot) {
        if (treeRoot != null && net.isHost(treeRoot)) {
            return treeRoot;
        }
        return net.hosts().stream()
                .filter(h -> !job.members().contains(h))
                .findFirst()
                .orElse(job.members().get(0));
    }

    /** The parameter-server baseline, the server on {@code ps}. */
    static Outcome ps(Network net, Job job, String ps) {
        Map<String, String> uplinks = new LinkedHashMap<>();
        job.members().forEach(m -> uplinks.put(m, ps));
        long[] held = new long[job.chunks()];
        return new WindowedSim(net, job, uplinks) {
            @Override
            void start() {
                startWorkers();
            }

            @Override
            void deliver(String host, Packet p, long t) {
                if (p.kind() == Kind.CONTRIBUTION && host.equals(ps)) {
                    held[p.chunk()] |= p.bits();
                    if (held[p.chunk()] == job.all()) {
                        for (String m : job.members()) {
                            route(ps, new Packet(Kind.UNICAST, p.chunk(), job.all(), m, p.bytes()), t);
                        }
                    }
                } else if (p.kind() == Kind.UNICAST) {
                    result(host, p.chunk(), t);
                }
            }
        }.run();
    }

    /** The ring baseline. */
    static Outcome ring(Network net, Job job) {
        int n = job.members().size();
        boolean[][] stored = new boolean[n][job.chunks()];
        int[] count = new int[n];
        int ackBytes = 40 + (n + 7) / 8;
        return new Sim(net, job) {
            /** Per member: sends due, {chunk, order, bits}, lowest chunk first; data packets not yet acknowledged. */
            final List<PriorityQueue<long[]>> due = new ArrayList<>();

            final int[] inFlight = new int[n];
            long order;

            {
                for (int i = 0; i < n; i++) {
                    due.add(new PriorityQueue<>(
                            (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])));
                }
            }

            String successor(int i) {
                return job.members().get((i + 1) % n);
            }

            void due(int i, int c, long bits) {
                due.get(i).add(new long[] {c, order++, bits});
            }

            /** Sends what is due while fewer than a window of this member's packets are unacknowledged. */
            void drain(int i, long t) {
                while (inFlight[i] < job.window() && !due.get(i).isEmpty()) {
                    long[] d = due.get(i).poll();
                    inFlight[i]++;
                    int c = (int) d[0];
                    at(job.members().get(i), new Packet(Kind.UNICAST, c, d[2], successor(i), job.bytes(c)), t);
                }
            }

            void store(int i, int c, long t) {
                if (!stored[i][c]) {
                    stored[i][c] = true;
                    count[i]++;
                    lastVt[i] = Math.max(lastVt[i], t);
                    finishedMembers += count[i] == job.chunks() ? 1 : 0;
                }
            }

            @Override
            void start() {
                for (int i = 0; i < n; i++) {
                    for (int c = 0; c < job.chunks(); c++) {
                        if (n == 1) {
                            store(i, c, 0);
                        } else if ((c % n + 1) % n == i) {
                            due(i, c, 1L << i);
                        }
                    }
                    drain(i, 0);
                }
            }

            int finishedMembers;

            @Override
            boolean allDone() {
                return finishedMembers == n;
            }

            @Override
            void deliver(String host, Packet p, long t) {
                int i = bitOf.get(host);
                int c = p.chunk();
                if (p.kind() == Kind.ACK) {
                    inFlight[i]--;
                    drain(i, t);
                    return;
                }
                // the acknowledgement first, back to the predecessor that sent it
                at(host, new Packet(Kind.ACK, c, p.bits(), job.members().get((i + n - 1) % n), ackBytes), t);
                if (p.bits() == job.all()) {
                    store(i, c, t);
                    if (c % n != (i + 1) % n) {
                        due(i, c, p.bits());
                    }
                } else {
                    long bits = p.bits() | (1L << i);
                    if (bits == job.all()) {
                        store(i, c, t);
                    }
                    due(i, c, bits);
                }
                drain(i, t);
            }

            @Override
            void checkFinished() {
                for (int i = 0; i < n; i++) {
                    if (count[i] != job.chunks()) {
                        throw new IllegalStateException(
                                "model: ring member " + job.members().get(i) + " stored " + count[i] + " chunks");
                    }
                }
            }
        }.run();
    }
}
