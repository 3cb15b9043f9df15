package org.bitina.protocol;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * B6, leaf switches as the edge BFRs of a BIER-INC job: a member host hands its INC packets
 * to its leaf and takes what comes back; a leaf sets the BFIR-id on its hosts' forward
 * packets and sums their shares before they enter the tree as one reduction with the
 * leaf's bit. A leaf whose hosts did not all answer passes its partial sum on toward the
 * BFIR with a provenance naming the hosts in it.
 */
final class EdgeAggregator implements TreeMechanism {
    private final NodeEngine engine;
    private final NodeContext node;
    /** Where the leaf's sums go: the INC trees of the same node (set once both exist). */
    IncTrees inc;

    EdgeAggregator(NodeEngine engine, NodeContext node) {
        this.engine = engine;
        this.node = node;
    }

    /** Returns the frame to go on with into the INC trees, or null when it was dealt with here. */
    Frame ingress(JobTables t, Frame f, long now, List<NodeEngine.Action> out) {
        EdgeRole e = t.edge();
        InaPacket p = f.packet();
        if (!e.leaf().equals(node.name)) {
            if (f.via() == null) {
                node.trace(out, t, f, "forward", List.of(e.leaf()), null);
                node.send(out, t, e.leaf(), new Frame(p, null, f.vt(), node.name));
            } else {
                node.deliver(t, f, out);
            }
            return null;
        }
        int local = f.via() == null ? -1 : e.hosts().indexOf(f.via());
        if (local < 0) {
            return f;
        }
        if (p.header().type() == PacketType.INC_FORWARD) {
            return new Frame(p.withHeader(p.header().withSource(e.bit())), f.destination(), f.vt(), f.via());
        }
        if (p.endpoints().cardinality() != 1 || !p.endpoints().contains(e.bit())) {
            node.drop(
                    out,
                    t,
                    f,
                    "a host behind " + node.name + " sent bitstring " + p.endpoints()
                            + "; it can only speak for this leaf's bit");
            return null;
        }
        if (p.header().has(Flags.LATE) || p.header().has(Flags.RETRANSMIT)) {
            return f;
        }
        int n = e.hosts().size();
        StateKey key = new StateKey(
                t.tenant(),
                t.job(),
                StateKey.Tree.EDGE,
                p.header().destination(),
                p.header().seq());
        Contribution c = new Contribution(FlatBitmap.of(n, local), p.header().op(), p.payload(), f.vt());
        engine.offer(this, t, f, key, FlatBitmap.full(n), c, "share", now, out);
        return null;
    }

    /** A leaf's sum of its hosts' shares: into the tree as the leaf's bit when all are in, else on to the BFIR with who is in it. */
    @Override
    public void emit(JobTables t, Emission e, long now, List<NodeEngine.Action> out) {
        EdgeRole r = t.edge();
        int bfir = (int) e.key().origin();
        InaHeader h = InaHeader.of(
                        PacketType.INC_REVERSE, t.tenant(), t.job(), e.key().seq())
                .withOp(e.op())
                .withDestination(bfir)
                .withSource(r.bit())
                .withEntropy(t.job());
        EndpointSet bits = FlatBitmap.of(t.capacity(), r.bit());
        if (e.pbm().cardinality() == r.hosts().size()) {
            inc.reverse(t, new Frame(new InaPacket(h, bits, e.payload()), null, e.vt(), node.name), now, out);
            return;
        }
        int[] held = e.pbm().stream().map(i -> r.hostBits().get(i)).toArray();
        EndpointSet provenance = FlatBitmap.of(r.endpointCapacity(), held);
        node.count(t, Counter.PASSED_ON);
        inc.passOn(
                t,
                new Frame(
                        new InaPacket(h.withFlags(Flags.LATE), bits, e.payload(), provenance, null),
                        null,
                        e.vt(),
                        node.name),
                out);
    }

    /** At a leaf edge: what the tree delivers here goes to the member hosts, but the one it came from. */
    boolean deliverToHosts(JobTables t, Frame f, String except, List<NodeEngine.Action> out) {
        EdgeRole e = t.edge();
        if (e == null || !e.leaf().equals(node.name)) {
            return false;
        }
        List<String> to = new ArrayList<>(e.hosts().size());
        for (String h : e.hosts()) {
            if (!h.equals(except)) {
                node.send(out, t, h, new Frame(f.packet(), null, f.vt(), node.name));
                to.add(h);
            }
        }
        node.trace(out, t, f, "forward", to, "to the hosts behind this leaf");
        return true;
    }

    /** At a leaf edge: a reduction for this leaf's bit goes to the member behind it that is the BFIR. */
    boolean toOwner(JobTables t, Frame f, List<NodeEngine.Action> out) {
        EdgeRole e = t.edge();
        if (e == null || !e.leaf().equals(node.name)) {
            return false;
        }
        if (e.owner() == null) {
            node.drop(out, t, f, "no BFIR behind leaf " + node.name);
        } else {
            node.trace(out, t, f, "forward", List.of(e.owner()), null);
            node.send(out, t, e.owner(), new Frame(f.packet(), null, f.vt(), node.name));
        }
        return true;
    }

    @Override
    public void unmatched(JobTables t, StateKey key, Frame f, List<NodeEngine.Action> out) {
        inc.unmatched(t, key, f, out);
    }

    @Override
    public void late(JobTables t, StateKey key, Frame f, long now, List<NodeEngine.Action> out) {
        inc.late(t, key, f, now, out);
    }

    @Override
    public void refused(JobTables t, StateKey key, Frame f, String reason, List<NodeEngine.Action> out) {
        inc.refused(t, key, f, reason, out);
    }

    @Override
    public void retransmitted(
            JobTables t, StateKey key, Frame f, Emission cached, long now, List<NodeEngine.Action> out) {
        node.drop(out, t, f, "duplicate share");
    }
}
