package org.bitina.protocol;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;

/**
 * BIER-INC trees (seed 001), created by the first forward packet of a (BFIR-id, entropy):
 * the upstream node, the incoming bitstring and the downstream copies (B2). The
 * communicator id (entropy) is the job id here, so a tree is named by (tenant, job,
 * BFIR-id). Reverse packets OR their bitstrings and reduce per branch, and go upstream
 * when the OR equals the branch's incoming bitstring or at the timer (B3). A routing
 * change drops every tree; what was open leaves at once toward the BFIR (B5).
 */
final class IncTrees implements TreeMechanism {
    /** One branch of a tree: with ECMP a node can receive a BFIR's bits in several copies, each a branch of its own. */
    record IncTree(String upstream, EndpointSet incoming, List<Replicator.Copy> downstream, EndpointSet local) {}

    private final String name;
    private final ObservedTrees observed;
    private final EdgeAggregator edge;
    /** Per (job, BFIR-id), its branches here; a stale branch's slot is null until reused. */
    private final Map<TreeName, List<IncTree>> trees = new HashMap<>();
    /** Changes with the routing, so state of a stale tree is never taken for state of the tree that replaced it. */
    private int generation;

    private record TreeName(JobKey job, int bfir) {}

    IncTrees(String name, ObservedTrees observed, EdgeAggregator edge) {
        this.name = name;
        this.observed = observed;
        this.edge = edge;
    }

    /** An aggregation's origin: its BFIR-id, the tree generation and the branch (decoded only here). */
    private static long origin(int bfir, int generation, int branch) {
        return ((long) bfir << 32) | ((long) generation << 16) | branch;
    }

    void reroute() {
        trees.clear();
        generation = (generation + 1) & 0xFFFF;
    }

    int count(JobKey job) {
        int n = 0;
        for (Map.Entry<TreeName, List<IncTree>> e : trees.entrySet()) {
            if (e.getKey().job().equals(job)) {
                n += (int) e.getValue().stream().filter(Objects::nonNull).count();
            }
        }
        return n;
    }

    /**
     * B2: the first forward packet of a (BFIR-id, entropy) creates the INC tree here from the
     * bit-by-bit BIER lookup; later ones use the installed downstream copies. A packet whose
     * bitstring differs from the saved incoming one rebuilds the tree (a routing change).
     * A retransmission (a request sent to the members that did not answer) is replicated
     * without touching the tree: its bitstring is a subset and must not replace the branch.
     */
    Decision forward(JobTables t, Frame f) {
        InaPacket p = f.packet();
        if (t.bift() == null) {
            return Decision.drop(t, f, DropReason.NO_BIFT);
        }
        List<Replicator.Copy> copies;
        EndpointSet local;
        Decision first = Decision.NOTHING;
        if (p.header().has(Flags.RETRANSMIT)) {
            Replicator.Result r = Replicator.replicate(p.endpoints(), t.bift());
            copies = r.copies();
            local = r.local();
            if (!r.unreachable().isEmpty()) {
                first = Decision.drop(t, f, DropReason.NO_ROUTE, r.unreachable());
            }
        } else {
            Branch b = branchOf(t, f);
            first = b.installed();
            copies = b.tree().downstream();
            local = b.tree().local();
        }
        // every hop names itself: the next node's upstream (seed 001)
        Decision sent = new Decision.Copies(t, f, copies, name);
        if (local.isEmpty()) {
            return Decision.all(first, sent);
        }
        Frame here = new Frame(p.withEndpoints(local), null, f.vt(), name);
        Decision toHosts = edge.deliverToHosts(t, here, f.via());
        return Decision.all(first, sent, toHosts != null ? toHosts : new Decision.Deliver(t, here));
    }

    /** The branch a forward packet belongs to, and what creating it asks of the node (nothing when it existed). */
    private record Branch(IncTree tree, Decision installed) {}

    /** The tree branch a forward packet belongs to, created by the first one (B2). */
    private Branch branchOf(JobTables t, Frame f) {
        InaPacket p = f.packet();
        TreeName tree = new TreeName(t.key(), p.header().source());
        List<IncTree> branches = trees.computeIfAbsent(tree, k -> new ArrayList<>(1));
        for (IncTree b : branches) {
            if (b != null && b.incoming().equals(p.endpoints()) && Objects.equals(b.upstream(), f.via())) {
                return new Branch(b, Decision.NOTHING);
            }
        }
        // a new branch; one that overlaps it is stale (the routes moved) and goes. Branches are
        // told apart by their bits, not by their upstream: one upstream may send several copies.
        Replicator.Result r = Replicator.replicate(p.endpoints(), t.bift());
        IncTree created = new IncTree(f.via(), p.endpoints(), r.copies(), r.local());
        observed.installed(t.key(), ObservedTrees.Mechanism.INC, f.via() == null ? name : f.via(), p.endpoints());
        for (int i = 0; i < branches.size(); i++) {
            if (branches.get(i) != null && branches.get(i).incoming().intersects(p.endpoints())) {
                branches.set(i, null);
            }
        }
        int free = branches.indexOf(null);
        if (free >= 0) {
            branches.set(free, created);
        } else {
            branches.add(created);
        }
        Decision installed = Decision.all(
                new Decision.Count(t, Counter.INC_TREES),
                new Decision.Note(
                        t,
                        p.header().seq(),
                        TraceEvent.Kind.INSTALL,
                        "mcast",
                        p.endpoints(),
                        r.copies().stream().map(Replicator.Copy::neighbor).toList(),
                        f.vt(),
                        "INC tree of BFIR " + tree.bfir() + ", upstream " + f.via()));
        return new Branch(created, installed);
    }

    /**
     * B3: OR the bitstrings and reduce; complete when the OR equals the saved incoming
     * bitstring, or at the timer. What no current branch here can take (the tree went with a
     * routing change, or the entry already left) and what comes flagged LATE or RETRANSMIT
     * is passed on toward the BFIR outside the tree and added there: never dropped, never
     * added twice (the BFIR takes only bits it has not heard).
     */
    Decision reverse(JobTables t, Frame f, long now) {
        InaPacket p = f.packet();
        if (p.header().has(Flags.LATE) || p.header().has(Flags.RETRANSMIT)) {
            return passOn(t, f);
        }
        int bfir = p.header().destination();
        List<IncTree> branches = trees.getOrDefault(new TreeName(t.key(), bfir), List.of());
        int at = -1;
        for (int i = 0; i < branches.size(); i++) {
            if (branches.get(i) != null
                    && p.endpoints().isSubsetOf(branches.get(i).incoming())) {
                at = i;
            }
        }
        if (at < 0) {
            return Decision.all(new Decision.Count(t, Counter.OFF_TREE), passOn(t, f.flaggedLate()));
        }
        StateKey key = new StateKey(
                t.tenant(),
                t.job(),
                StateKey.Tree.INC,
                origin(bfir, generation, at),
                p.header().seq());
        return new Decision.Offer(
                this, t, f, key, branches.get(at).incoming(), NodeEngine.contribution(f), "reduction", now);
    }

    /** A reduction leaves: to the upstream of its branch, or, when that tree is gone, toward the BFIR. */
    @Override
    public Decision emit(JobTables t, Emission e, long now) {
        long origin = e.key().origin();
        int bfir = (int) (origin >>> 32);
        int gen = (int) ((origin >>> 16) & 0xFFFF);
        int branch = (int) (origin & 0xFFFF);
        List<IncTree> branches = trees.get(new TreeName(t.key(), bfir));
        IncTree tree = gen == generation && branches != null && branch < branches.size() ? branches.get(branch) : null;
        int flags = tree == null ? Flags.LATE : e.partial() ? Flags.PARTIAL : 0;
        InaHeader h = InaHeader.of(
                        PacketType.INC_REVERSE, t.tenant(), t.job(), e.key().seq())
                .withOp(e.op())
                .withDestination(bfir)
                .withEntropy(t.job())
                .withFlags(flags);
        InaPacket packet = new InaPacket(h, e.pbm(), e.payload());
        if (tree == null) {
            return Decision.all(
                    new Decision.Count(t, Counter.PASSED_ON), passOn(t, new Frame(packet, null, e.vt(), name)));
        } else if (tree.upstream() == null) {
            // this node is the BFIR: the reduction is for its endpoint
            return new Decision.Deliver(t, new Frame(packet, name, e.vt(), name));
        }
        return new Decision.Forward(t, tree.upstream(), new Frame(packet, tree.upstream(), e.vt(), name));
    }

    /** Toward the BFIR hop by hop along the BIFT (the next hop of the BFIR's own bit), unaggregated. */
    Decision passOn(JobTables t, Frame f) {
        int bfir = f.packet().header().destination();
        if (t.bift() == null || bfir < 0 || bfir >= t.capacity()) {
            return Decision.drop(t, f, DropReason.BFIR_OUTSIDE_BITS, bfir);
        }
        if (t.bift().local().contains(bfir)) {
            Decision toOwner = edge.toOwner(t, f);
            return toOwner != null ? toOwner : new Decision.Deliver(t, f);
        }
        String hop = t.bift().neighborFor(bfir);
        if (hop == null) {
            return Decision.drop(t, f, DropReason.NO_ROUTE_TO_BFIR, bfir);
        }
        return new Decision.Forward(t, hop, new Frame(f.packet(), null, f.vt(), name));
    }

    /** Whatever this branch can no longer take goes on toward the BFIR, never dropped. */
    @Override
    public Decision unmatched(JobTables t, StateKey key, Frame f) {
        return Decision.all(new Decision.Count(t, Counter.LATE), passOn(t, f.flaggedLate()));
    }

    @Override
    public Decision late(JobTables t, StateKey key, Frame f, long now) {
        return passOn(t, f.flaggedLate());
    }

    @Override
    public Decision refused(JobTables t, StateKey key, Frame f, AggregationTable.Refused reason) {
        // over the quota (S5): unaggregated, but not lost
        return passOn(t, f.flaggedLate());
    }

    @Override
    public Decision retransmitted(JobTables t, StateKey key, Frame f, Emission cached, long now) {
        // retransmissions are passed on before they meet a branch: one here is a plain duplicate
        return Decision.drop(t, f, DropReason.DUPLICATE, "reduction");
    }
}
