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
    private final String name;
    /** Where the leaf's sums go: the INC trees of the same node (set once both exist). */
    IncTrees inc;

    EdgeAggregator(String name) {
        this.name = name;
    }

    /** What becomes of an INC packet at a member host or at a leaf: into the INC trees ({@link Decision.Inc}) or dealt with here. */
    Decision ingress(JobTables t, Frame f, long now) {
        EdgeRole e = t.edge();
        InaPacket p = f.packet();
        if (!e.leaf().equals(name)) {
            if (f.via() == null) {
                return new Decision.Forward(t, e.leaf(), new Frame(p, null, f.vt(), name));
            }
            return new Decision.Deliver(t, f);
        }
        int local = f.via() == null ? -1 : e.hosts().indexOf(f.via());
        if (local < 0) {
            return new Decision.Inc(t, f, now);
        }
        if (p.header().type() == PacketType.INC_FORWARD) {
            return new Decision.Inc(
                    t, new Frame(p.withHeader(p.header().withSource(e.bit())), f.destination(), f.vt(), f.via()), now);
        }
        if (p.endpoints().cardinality() != 1 || !p.endpoints().contains(e.bit())) {
            return Decision.drop(t, f, DropReason.FOREIGN_SHARE, name, p.endpoints());
        }
        if (p.header().has(Flags.LATE) || p.header().has(Flags.RETRANSMIT)) {
            return new Decision.Inc(t, f, now);
        }
        int n = e.hosts().size();
        StateKey key = new StateKey(
                t.tenant(),
                t.job(),
                StateKey.Tree.EDGE,
                p.header().destination(),
                p.header().seq());
        Contribution c = new Contribution(
                FlatBitmap.of(n, local),
                p.header().op(),
                p.payload(),
                f.vt(),
                null,
                p.header().has(Flags.CE));
        return new Decision.Offer(this, t, f, key, FlatBitmap.full(n), c, "share", now);
    }

    /** A leaf's sum of its hosts' shares: into the tree as the leaf's bit when all are in, else on to the BFIR with who is in it. */
    @Override
    public Decision emit(JobTables t, Emission e, long now) {
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
            return inc.reverse(t, new Frame(new InaPacket(h, bits, e.payload()), null, e.vt(), name), now);
        }
        int[] held = e.pbm().stream().map(i -> r.hostBits().get(i)).toArray();
        EndpointSet provenance = FlatBitmap.of(r.endpointCapacity(), held);
        return Decision.all(
                new Decision.Count(t, Counter.PASSED_ON),
                inc.passOn(
                        t,
                        new Frame(
                                new InaPacket(h.withFlags(Flags.LATE), bits, e.payload(), provenance, null),
                                null,
                                e.vt(),
                                name)));
    }

    /** At a leaf edge: what the tree delivers here goes to the member hosts, but the one it came from; null elsewhere. */
    Decision deliverToHosts(JobTables t, Frame f, String except) {
        EdgeRole e = t.edge();
        if (e == null || !e.leaf().equals(name)) {
            return null;
        }
        List<Decision> steps = new ArrayList<>(e.hosts().size() + 1);
        List<String> to = new ArrayList<>(e.hosts().size());
        for (String h : e.hosts()) {
            if (!h.equals(except)) {
                steps.add(new Decision.Send(t, h, new Frame(f.packet(), null, f.vt(), name)));
                to.add(h);
            }
        }
        steps.add(new Decision.Trace(t, f, TraceEvent.Kind.FORWARD, to, "to the hosts behind this leaf"));
        return new Decision.All(steps);
    }

    /** At a leaf edge: a reduction for this leaf's bit goes to the member behind it that is the BFIR; null elsewhere. */
    Decision toOwner(JobTables t, Frame f) {
        EdgeRole e = t.edge();
        if (e == null || !e.leaf().equals(name)) {
            return null;
        }
        if (e.owner() == null) {
            return Decision.drop(t, f, DropReason.NO_BFIR_BEHIND_LEAF, name);
        }
        return new Decision.Forward(t, e.owner(), new Frame(f.packet(), null, f.vt(), name));
    }

    @Override
    public Decision unmatched(JobTables t, StateKey key, Frame f) {
        return inc.unmatched(t, key, f);
    }

    @Override
    public Decision late(JobTables t, StateKey key, Frame f, long now) {
        return inc.late(t, key, f, now);
    }

    @Override
    public Decision refused(JobTables t, StateKey key, Frame f, AggregationTable.Refused reason) {
        return inc.refused(t, key, f, reason);
    }

    @Override
    public Decision retransmitted(JobTables t, StateKey key, Frame f, Emission cached, long now) {
        return Decision.drop(t, f, DropReason.DUPLICATE, "share");
    }
}
