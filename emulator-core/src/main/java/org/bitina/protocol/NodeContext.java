package org.bitina.protocol;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.bitmap.EndpointSet;
import org.bitina.security.ChecksumAudit;
import org.bitina.security.PacketMac;
import org.bitina.security.ReplayWindow;
import org.bitina.security.TokenBucket;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * The state of one node's data plane (its name, routing, aggregation table, the jobs installed
 * on it, its counters, its ingress policing) and the few ways a frame leaves (send, route,
 * deliver, drop), each traced and counted in one place. Only {@link NodeEngine} uses it: the
 * tree mechanisms return {@link Decision}s, which the engine carries out through these.
 */
final class NodeContext {
    final String name;
    final AggregationTable table;
    final boolean tracing;
    Routing routing;
    final Map<JobKey, JobTables> jobs = new HashMap<>();
    final Map<JobKey, Counters> counters = new HashMap<>();
    long unknownJobDrops;
    /** Drops by reason, per job (frames of no job under {@link #NO_JOB}), and the last reason given. */
    final Map<JobKey, Map<String, Long>> dropReasons = new HashMap<>();

    long drops;
    String lastDrop;
    static final JobKey NO_JOB = new JobKey(-1, -1);

    NodeContext(String name, Routing routing, AggregationTable table, boolean tracing) {
        this.name = name;
        this.routing = routing;
        this.table = table;
        this.tracing = tracing;
    }

    JobTables job(JobKey k) {
        return jobs.get(k);
    }

    Counters counters(JobKey k) {
        return counters.computeIfAbsent(k, x -> new Counters());
    }

    void count(JobTables t, Counter c) {
        counters(t.key()).add(c);
    }

    /** Puts a frame on the link to a neighbour, its endpoint set in the job's encoding. */
    void send(List<NodeEngine.Action> out, JobTables t, String neighbor, Frame f) {
        Frame w = onWire(t, f, neighbor);
        if (t.macKey() != null && isHost(name) && w.packet().authTag() == null) {
            // S2: an endpoint's packet leaves its host tagged, as it goes on the wire (after the NIC's last change to
            // it);
            // one that carries a tag already keeps it (an attack's forged tag is the attacker's to choose)
            w = w.withPacket(mac.sign(t.macKey(), w.packet()));
        }
        out.add(new NodeEngine.Send(neighbor, w));
    }

    /** S2: this node's MACs (one instance per device: it keeps an initialised MAC per job key). */
    final PacketMac mac = new PacketMac();

    /** Toward the frame's underlay destination by unicast routing, or to this node's endpoint. */
    void route(JobTables t, Frame f, List<NodeEngine.Action> out) {
        String dst = f.destination();
        if (dst.equals(name)) {
            if (routing.topology().has(name) && routing.topology().node(name).isSwitch()) {
                // a switch hosts no endpoints: a frame for state it no longer keeps (a straggler's ACK after
                // its round's entry expired) ends here, counted, instead of going to drivers that are not there
                drop(out, t, f, DropReason.SWITCH_WITHOUT_STATE);
                return;
            }
            deliver(t, f, out);
            return;
        }
        if (!routing.topology().has(dst)) {
            // a hostile or broken sender: a counted drop, never an exception out of the device
            drop(out, t, f, DropReason.UNKNOWN_DESTINATION, dst);
            return;
        }
        String hop = routing.nextHop(name, dst);
        if (hop == null) {
            drop(out, t, f, DropReason.NO_ROUTE, dst);
            return;
        }
        count(t, Counter.FORWARDED);
        trace(out, t, f, TraceEvent.Kind.FORWARD, List.of(hop), null);
        send(out, t, hop, f);
    }

    /**
     * An aggregation packet with no state here: when it was addressed to this node, whose state
     * for it is gone, it goes on up the tree to {@code parent}; else on toward its destination.
     */
    void passUpOrRoute(JobTables t, Frame f, String parent, List<NodeEngine.Action> out) {
        if (f.destination().equals(name) && parent != null && !parent.equals(name)) {
            count(t, Counter.PASSED_UP);
            route(t, new Frame(f.packet(), parent, f.vt()), out);
        } else {
            route(t, f, out);
        }
    }

    /** Hands a frame to the endpoint drivers on this node. */
    void deliver(JobTables t, Frame f, List<NodeEngine.Action> out) {
        count(t, Counter.DELIVERED);
        trace(out, t, f, TraceEvent.Kind.DELIVER, List.of(), null);
        out.add(new NodeEngine.Deliver(f));
    }

    void drop(List<NodeEngine.Action> out, JobTables t, Frame f, DropReason why, Object... args) {
        dropText(out, t, f, why.text(args));
    }

    /**
     * A drop whose text is made already ({@link Decision.Drop}, a rejection's): counted by the text
     * with its bitmaps and numbers left out ({@link DropReason#key}), so that one cause is one line
     * however many frames it hit.
     */
    void dropText(List<NodeEngine.Action> out, JobTables t, Frame f, String reason) {
        if (t != null) {
            count(t, Counter.DROPS);
        } else {
            unknownJobDrops++;
        }
        dropReasons
                .computeIfAbsent(t == null ? NO_JOB : t.key(), k -> new TreeMap<>())
                .merge(DropReason.key(reason), 1L, Long::sum);
        drops++;
        lastDrop = reason;
        trace(out, t, f, TraceEvent.Kind.DROP, List.of(), reason);
    }

    /** S3: per job and host port, the window of contribution numbers seen (kept for the run: a replay is one at any age). */
    final Map<JobKey, Map<String, ReplayWindow>> replay = new HashMap<>();

    final Map<JobKey, Map<String, TokenBucket>> buckets = new HashMap<>();

    /** S4: the token bucket of one job's packets from one host port. */
    TokenBucket bucket(JobTables t, String port) {
        return buckets.computeIfAbsent(t.key(), k -> new HashMap<>())
                .computeIfAbsent(port, k -> t.ingress().rate().bucket());
    }

    ReplayWindow replayWindow(JobTables t, String port) {
        return replay.computeIfAbsent(t.key(), k -> new HashMap<>())
                .computeIfAbsent(
                        port,
                        k -> new ReplayWindow(
                                t.ingress() == null ? 64 : t.ingress().contributions()));
    }

    /** S6: per job, the controller's audit tap at this node's ports (kept over a restart: it is the controller's). */
    final Map<JobKey, ChecksumAudit> audits = new HashMap<>();

    /**
     * S6: an int32 contribution or result of a job with an audit key, from a neighbour, is checked
     * against the checksum invariant as it arrives; a failure is kept, the frame goes on (the
     * endpoints' checks and fallback handle it).
     */
    void audit(JobTables t, InaPacket p, String from) {
        PacketType type = p.header().type();
        if (t.auditKey() == null
                || from == null
                || !(p.payload() instanceof Payload.Int32 v)
                || (type != PacketType.CONTRIBUTION && type != PacketType.RESULT)) {
            return;
        }
        audits.computeIfAbsent(t.key(), k -> new ChecksumAudit(t.auditKey()))
                .check(from, p.header().seq(), v.values(), type == PacketType.RESULT);
    }

    /** Whether {@code neighbor} is a host of the topology (an endpoint's port). */
    boolean isHost(String neighbor) {
        Topology topo = routing == null ? null : routing.topology();
        return neighbor != null
                && topo != null
                && topo.has(neighbor)
                && !topo.node(neighbor).isSwitch();
    }

    void trace(
            List<NodeEngine.Action> out, JobTables t, Frame f, TraceEvent.Kind event, List<String> to, String detail) {
        if (tracing) {
            out.add(new NodeEngine.Traced(
                    TraceEvent.of(name, t, f.packet(), event, f.packet().endpoints(), to, f.vt(), detail)));
        }
    }

    /** A trace event that is not about one frame (a timeout, an install). */
    void trace(
            List<NodeEngine.Action> out,
            JobTables t,
            long seq,
            TraceEvent.Kind event,
            String dir,
            EndpointSet bitmap,
            List<String> to,
            long vt,
            String detail) {
        if (tracing) {
            out.add(new NodeEngine.Traced(TraceEvent.about(name, t, seq, event, dir, bitmap, to, vt, detail)));
        }
    }

    /**
     * The copies a multicast step sent: one {@code forward} event when there is one, else one
     * {@code replicate} event per copy with that copy's bitmap (F-BM AND the packet's, as RFC 8279
     * walks them) and its one next hop; the detail names the copy and the bitmap it came from.
     */
    void traceCopies(List<NodeEngine.Action> out, JobTables t, Frame f, List<Replicator.Copy> copies) {
        if (!tracing || copies.isEmpty()) {
            return;
        }
        if (copies.size() == 1) {
            Replicator.Copy c = copies.get(0);
            out.add(new NodeEngine.Traced(TraceEvent.of(
                    name, t, f.packet(), TraceEvent.Kind.FORWARD, c.bitmap(), List.of(c.neighbor()), f.vt(), null)));
            return;
        }
        for (int i = 0; i < copies.size(); i++) {
            Replicator.Copy c = copies.get(i);
            out.add(new NodeEngine.Traced(TraceEvent.of(
                    name,
                    t,
                    f.packet(),
                    TraceEvent.Kind.REPLICATE,
                    c.bitmap(),
                    List.of(c.neighbor()),
                    f.vt(),
                    "copy " + (i + 1) + "/" + copies.size() + " of "
                            + f.packet().endpoints())));
        }
    }

    /**
     * Every packet leaves a node with its endpoint set in the job's encoding on that link (H2):
     * endpoints and switches may compute on any encoding, the wire carries the one the job chose,
     * the hosts' on a host's link when the job translates at the fabric's edge. A switch that
     * converts a frame into the hosts' encoding counts a translation.
     */
    private Frame onWire(JobTables t, Frame f, String neighbor) {
        EndpointSet set = f.packet().endpoints();
        EncodingSpec e = t.encoding();
        if (e == null) {
            return f;
        }
        boolean edge = false;
        if (e.translates()) { // else one encoding everywhere: no need to look the link's ends up, per frame
            boolean fromHost = isHost(name);
            boolean toHost = isHost(neighbor);
            edge = !fromHost && toHost; // a switch that puts the frame on a host's link converts it
            e = e.onLink(fromHost, toHost);
        }
        if (e.holds(set)) {
            return f;
        }
        if (edge) {
            count(t, Counter.TRANSLATED);
        }
        return new Frame(f.packet().withEndpoints(e.encode(set)), f.destination(), f.vt(), f.via());
    }

    /**
     * A frame from a host's link, at the switch on the fabric's edge: its endpoint set converted
     * to the fabric's encoding, counted, when the job translates there (seed 000 section 7: a node
     * list from the host becomes a local bitmap inside the aggregation domain); else as it came.
     */
    Frame atIngress(JobTables t, Frame f) {
        EncodingSpec e = t.encoding();
        if (e == null || !e.translates() || e.holds(f.packet().endpoints()) || isHost(name)) {
            return f;
        }
        count(t, Counter.TRANSLATED);
        return f.withPacket(f.packet().withEndpoints(e.encode(f.packet().endpoints())));
    }
}
