package org.bitina.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.device.DriverSpec;
import org.bitina.job.AllReducePlan;
import org.bitina.job.IncMember;
import org.bitina.job.IncPlan;
import org.bitina.job.MoePlan;
import org.bitina.job.MulticastPlan;
import org.bitina.protocol.EdgeRole;
import org.bitina.protocol.JobTables;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.FaultSpec;
import org.bitina.topology.JobSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Scenario;
import org.bitina.topology.TreeSpec;
import org.bitina.topology.Vat;

/**
 * Turns a validated scenario into the phases of a run (the "installer" of DESIGN.md's data
 * flow): for each job, the INA phase and one phase per baseline, each with the tables every
 * node gets, the drivers every host runs and what the fault plan makes the scenario expect.
 */
public final class PhasePlanner {
    /** Baselines get their own wire job ids so that no switch holds state for them. */
    public static final int RING_JOB_OFFSET = 1_000_000;
    public static final int PS_JOB_OFFSET = 2_000_000;
    public static final int A2A_JOB_OFFSET = 3_000_000;
    public static final int UNICAST_ACK_JOB_OFFSET = 4_000_000;

    private PhasePlanner() {
    }

    public static List<Phase> plan(Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        for (Phase p : planEach(s, routing)) {
            // the job's endpoint-set encoding applies on every link, in every mode (H2, H3)
            Map<String, JobTables> encoded = new LinkedHashMap<>();
            p.tables().forEach((n, t) -> encoded.put(n, t.withEncoding(p.job().common().encoding())));
            phases.add(new Phase(p.job(), p.mode(), p.wireJob(), p.plan(), p.moe(), p.multicast(), p.vat(), encoded, p.drivers(),
                    p.awaited(), p.roots(), p.deadline(), p.expectedStatus(), p.expectedMissing(), p.note()
                    + "; endpoint sets " + describe(p.job().common().encoding())));
        }
        return phases;
    }

    private static String describe(org.bitina.topology.EncodingSpec e) {
        return switch (e.encoding()) {
            case FLAT -> "flat";
            case NODE_LIST -> "node-list";
            case HIERARCHICAL -> "hierarchical (blocks of " + e.blockSize() + ")";
        };
    }

    private static List<Phase> planEach(Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        for (JobSpec job : s.jobs()) {
            if (job instanceof JobSpec.Multicast mc) {
                phases.add(multicast(s, routing, mc, "ina"));
                if (mc.common().baselines().contains("unicast-ack")) {
                    phases.add(multicast(s, routing, mc, "unicast-ack"));
                }
                continue;
            }
            if (job instanceof JobSpec.Moe moe) {
                phases.add(moe(s, routing, moe, "ina"));
                if (moe.common().baselines().contains("all-to-all")) {
                    phases.add(moe(s, routing, moe, "all-to-all"));
                }
                continue;
            }
            if (!(job instanceof JobSpec.AllReduce ar)) {
                throw new UnsupportedOperationException("job '" + job.name() + "' is a " + job.common().kind().configName()
                        + " job, which this version cannot run yet");
            }
            phases.add(ar.tree().mode() == org.bitina.topology.TreeSpec.Mode.BIER_INC ? bierInc(s, routing, ar) : ina(s, routing, ar));
            for (String b : ar.common().baselines()) {
                phases.add(b.equals("ring") ? ring(s, ar) : ps(s, routing, ar));
            }
        }
        return phases;
    }

    /** The VAT of a job: as configured, or built automatically (A6). */
    public static Vat vatOf(Scenario s, Routing routing, JobSpec.AllReduce job) {
        if (job.tree().mode() == TreeSpec.Mode.VAT) {
            return job.tree().vat();
        }
        Vat.Result r = AutoVat.build(s.topology(), routing, job.common().bitSpace(), job.common().members(), job.tree().root());
        if (r.vat() == null) {
            throw new IllegalStateException("cannot build a VAT for job '" + job.name() + "': " + r.defects());
        }
        return r.vat();
    }

    private static Phase ina(Scenario s, Routing routing, JobSpec.AllReduce job) {
        Vat vat = vatOf(s, routing, job);
        int wireJob = job.common().id();
        long timeout = job.common().completionTimeout().toNanos();
        Map<String, Integer> height = new HashMap<>();
        heights(vat, vat.root(), height);
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat.aBm(n.name()) != null;
            // a VAT node of height h waits h timeouts, so that its children's partials reach it first
            long nodeTimeout = vatNode ? timeout * height.get(n.name()) : timeout;
            tables.put(n.name(), JobTables.builder(job.name(), job.common().tenant(), wireJob, job.common().bitSpace().capacity(),
                            nodeTimeout).bift(Bift.build(routing, n.name(), job.common().bitSpace()))
                    .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null).root(n.name().equals(vat.root()))
                    .build());
        }
        Map<String, String> uplink = new LinkedHashMap<>();
        job.common().members().forEach(m -> uplink.put(m, vat.parent(m)));
        AllReducePlan plan = plan(s, job, "ina", wireJob, uplink, null, timeout * height.get(vat.root()));
        List<DriverSpec> drivers = new ArrayList<>();
        job.common().members().forEach(m -> drivers.add(new DriverSpec(DriverSpec.Role.ALLREDUCE_WORKER, plan, m)));
        Set<String> silent = plan.silent();
        return new Phase(job, "ina", wireJob, plan, null, null, vat, tables, drivers, awaited(job, silent), List.of(vat.root()),
                deadline(job, height.get(vat.root())), silent.isEmpty() ? "complete" : "partial", silent,
                "VAT root " + vat.root());
    }

    /** How many completion timeouts a BIER-INC owner waits for a chunk before asking again: a reverse path is a few hops of timers. */
    static final int INC_WAIT_TIMEOUTS = 8;

    /**
     * BIER-INC (seed 001): each owner is the BFIR of its own tree; its first forward packet
     * builds the tree, the others reduce in reverse. AllReduce: chunk c belongs to owner
     * c mod N (every member, or one member per leaf when the leaves are the edge BFRs) and
     * is broadcast back on the same tree; Reduce and Broadcast have the root as sole owner.
     * Every node holds the BIFT of the job's bitstrings, none an A-BM.
     */
    private static Phase bierInc(Scenario s, Routing routing, JobSpec.AllReduce job) {
        int wireJob = job.common().id();
        long timeout = job.common().completionTimeout().toNanos();
        TreeSpec spec = job.tree();
        List<String> members = job.common().members();
        BitSpace endpoints = job.common().bitSpace();
        Map<String, String> leafOf = new LinkedHashMap<>();
        BitSpace wire = endpoints;
        if (spec.leafEdge()) {
            members.forEach(m -> leafOf.put(m, s.topology().neighbors(m).get(0)));
            wire = new BitSpace(List.copyOf(new LinkedHashSet<>(leafOf.values())));
        }
        List<String> owners = new ArrayList<>();
        if (spec.collective() != TreeSpec.Collective.ALLREDUCE) {
            owners.add(spec.root());
        } else if (spec.leafEdge()) {
            // one owner per leaf: a tree is named by its BFIR-id, which is the leaf's
            Set<String> seen = new LinkedHashSet<>();
            members.stream().filter(m -> seen.add(leafOf.get(m))).forEach(owners::add);
        } else {
            owners.addAll(members);
        }
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            JobTables.Builder t = JobTables.builder(job.name(), job.common().tenant(), wireJob, wire.capacity(), timeout)
                    .bift(Bift.build(routing, n.name(), wire));
            if (spec.leafEdge() && wire.contains(n.name())) {
                List<String> behind = members.stream().filter(m -> leafOf.get(m).equals(n.name())).toList();
                String owner = owners.stream().filter(behind::contains).findFirst().orElse(null);
                t.edge(new EdgeRole(n.name(), wire.index(n.name()), behind, behind.stream().map(endpoints::index).toList(),
                        endpoints.capacity(), owner));
            } else if (spec.leafEdge() && leafOf.containsKey(n.name())) {
                t.edge(EdgeRole.host(leafOf.get(n.name()), wire.index(leafOf.get(n.name())), endpoints.capacity()));
            }
            tables.put(n.name(), t.build());
        }
        AllReducePlan plan = plan(s, job, "ina", wireJob, Map.of(), null, timeout);
        IncPlan.Collective collective = IncPlan.Collective.valueOf(spec.collective().name());
        IncPlan inc = new IncPlan(plan, collective, wire, leafOf, owners, INC_WAIT_TIMEOUTS * timeout);
        List<DriverSpec> drivers = new ArrayList<>();
        members.forEach(m -> drivers.add(DriverSpec.inc(inc, m)));
        Set<String> silent = plan.silent();
        Set<String> awaited = collective == IncPlan.Collective.REDUCE ? new LinkedHashSet<>(owners) : awaited(job, silent);
        awaited.removeAll(silent);
        String what = switch (collective) {
            case ALLREDUCE -> "AllReduce over one data-driven tree per owner (" + owners.size() + ")";
            case REDUCE -> "Reduce to " + spec.root();
            case BROADCAST -> "Broadcast from " + spec.root();
        };
        // a silent owner starts no tree: nobody reduces its chunks, as nobody passes a silent ring member's
        List<String> silentOwners = owners.stream().filter(silent::contains).toList();
        String expected = silent.isEmpty() ? "complete" : silentOwners.isEmpty() ? "partial" : "failed";
        return new Phase(job, "ina", wireJob, plan, null, null, null, tables, drivers, awaited, owners,
                deadline(job, 3 + IncMember.MAX_SENDS * INC_WAIT_TIMEOUTS), expected, silent,
                "BIER-INC " + what + ", communicator = job id, edge BFRs: " + (spec.leafEdge() ? "leaf switches " + wire.endpoints()
                        : "hosts") + (silentOwners.isEmpty() ? "" : "; silent owners start no tree: " + silentOwners));
    }

    private static Phase ring(Scenario s, JobSpec.AllReduce job) {
        int wireJob = job.common().id() + RING_JOB_OFFSET;
        AllReducePlan plan = plan(s, job, "ring", wireJob, Map.of(), null, job.common().completionTimeout().toNanos());
        List<DriverSpec> drivers = new ArrayList<>();
        job.common().members().forEach(m -> drivers.add(new DriverSpec(DriverSpec.Role.RING_WORKER, plan, m)));
        Set<String> silent = plan.silent();
        return new Phase(job, "ring", wireJob, plan, null, null, null, bareTables(s, job, wireJob, "ring"), drivers, awaited(job, silent), null,
                deadline(job, job.common().members().size()), silent.isEmpty() ? "complete" : "failed", silent,
                silent.isEmpty() ? "ring of " + job.common().members().size() + " members"
                        : "a ring cannot complete with a silent member: " + silent);
    }

    private static Phase ps(Scenario s, Routing routing, JobSpec.AllReduce job) {
        int wireJob = job.common().id() + PS_JOB_OFFSET;
        String psHost = psHost(s, routing, job);
        Map<String, String> uplink = new LinkedHashMap<>();
        job.common().members().forEach(m -> uplink.put(m, psHost));
        long timeout = job.common().completionTimeout().toNanos();
        AllReducePlan plan = plan(s, job, "ps", wireJob, uplink, psHost, timeout);
        List<DriverSpec> drivers = new ArrayList<>();
        drivers.add(new DriverSpec(DriverSpec.Role.PARAMETER_SERVER, plan, psHost));
        job.common().members().forEach(m -> drivers.add(new DriverSpec(DriverSpec.Role.ALLREDUCE_WORKER, plan, m)));
        Set<String> silent = plan.silent();
        return new Phase(job, "ps", wireJob, plan, null, null, null, bareTables(s, job, wireJob, "ps"), drivers, awaited(job, silent),
                List.of(psHost),
                deadline(job, 1), silent.isEmpty() ? "complete" : "partial", silent, "parameter server " + psHost);
    }

    /**
     * An MoE phase: in INA mode every node holds the BIFT of the experts' bit space and
     * installs C-BMs as the dispatch passes; the all-to-all baseline only routes.
     */
    private static Phase moe(Scenario s, Routing routing, JobSpec.Moe job, String mode) {
        boolean ina = mode.equals("ina");
        int wireJob = job.common().id() + (ina ? 0 : A2A_JOB_OFFSET);
        long timeout = job.common().completionTimeout().toNanos();
        Map<String, JobTables> tables = new LinkedHashMap<>();
        if (ina) {
            for (Node n : s.topology().nodes()) {
                tables.put(n.name(), JobTables.builder(job.name(), job.common().tenant(), wireJob, job.common().bitSpace().capacity(),
                        timeout).bift(Bift.build(routing, n.name(), job.common().bitSpace())).build());
            }
        } else {
            tables = bareTables(s, job, wireJob, mode);
        }
        Map<String, AllReducePlan.Straggler> stragglers = new LinkedHashMap<>();
        Set<String> silentHosts = new LinkedHashSet<>();
        for (FaultSpec f : s.faults()) {
            if (f.node() != null && job.common().members().contains(f.node())) {
                if (f.kind() == FaultSpec.Kind.STRAGGLER) {
                    stragglers.put(f.node(), new AllReducePlan.Straggler(f.delay().toNanos(), f.jitter().toNanos(), Set.of()));
                } else if (f.kind() == FaultSpec.Kind.SILENT) {
                    silentHosts.add(f.node());
                }
            }
        }
        int mtu = s.topology().links().stream().mapToInt(l -> l.spec().mtu()).min().orElse(4096);
        int budget = mtu - org.bitina.wire.PacketCodec.HEADER_BYTES - (job.common().bitSpace().capacity() + 7) / 8;
        MoePlan plan = new MoePlan(job.name(), mode, job.common().tenant(), wireJob, job.common().bitSpace(), job.sources(),
                job.params(), timeout, budget, stragglers, silentHosts);
        List<DriverSpec> drivers = new ArrayList<>();
        for (JobSpec.Expert e : job.experts()) {
            drivers.add(DriverSpec.moe(DriverSpec.Role.MOE_EXPERT, plan, e.host(), e.name()));
        }
        for (String src : job.sources()) {
            drivers.add(DriverSpec.moe(DriverSpec.Role.MOE_SOURCE, plan, src, src));
        }
        Set<String> silentExperts = new LinkedHashSet<>();
        job.experts().stream().filter(e -> silentHosts.contains(e.host())).forEach(e -> silentExperts.add(e.name()));
        Duration deadline = Duration.ofMillis(30_000 + 20 * job.common().completionTimeout().toMillis());
        return new Phase(job, mode, wireJob, null, plan, null, null, tables, drivers, new LinkedHashSet<>(job.sources()), job.sources(),
                deadline, silentExperts.isEmpty() ? "complete" : "partial", silentExperts,
                (ina ? "dispatch by bitmap multicast, combine at C-BM branch nodes" : "all-to-all unicast") + ", "
                        + job.params().granularity() + " granularity, top-" + job.params().topK());
    }

    /**
     * A reliable-multicast phase: every node holds the BIFT of the receivers' bit space for
     * the data; the ACK tree is the automatic VAT rooted at the source (pre-configured and
     * composed) and/or C-BMs the data installs (self-installed and composed retransmissions).
     * In the unicast-ACK baseline nothing aggregates and every receiver ACKs the source.
     */
    private static Phase multicast(Scenario s, Routing routing, JobSpec.Multicast job, String mode) {
        boolean ina = mode.equals("ina");
        int wireJob = job.common().id() + (ina ? 0 : UNICAST_ACK_JOB_OFFSET);
        long timeout = job.common().completionTimeout().toNanos();
        String tree = job.params().ackTree();
        Vat vat = null;
        Map<String, Integer> height = new HashMap<>();
        if (ina && !tree.equals("self-installed")) {
            Vat.Result r = AutoVat.build(s.topology(), routing, job.common().bitSpace(), job.common().members(), job.source());
            if (r.vat() == null) {
                throw new IllegalStateException("cannot build the ACK tree of job '" + job.name() + "': " + r.defects());
            }
            vat = r.vat();
            heights(vat, vat.root(), height);
        }
        JobTables.DataInstall install = !ina ? JobTables.DataInstall.NEVER : switch (tree) {
            case "self-installed" -> JobTables.DataInstall.ALWAYS;
            case "composed" -> JobTables.DataInstall.RETRANSMISSIONS;
            default -> JobTables.DataInstall.NEVER;
        };
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat != null && vat.aBm(n.name()) != null;
            long nodeTimeout = vatNode ? timeout * height.get(n.name()) : timeout;
            tables.put(n.name(), JobTables.builder(job.name() + (ina ? "" : "/" + mode), job.common().tenant(), wireJob,
                            job.common().bitSpace().capacity(), nodeTimeout).bift(Bift.build(routing, n.name(), job.common().bitSpace()))
                    .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null)
                    .root(vat != null && n.name().equals(vat.root())).dataInstall(install).rootMulticasts(false).build());
        }
        Map<String, String> uplink = new LinkedHashMap<>();
        for (String r : job.common().members()) {
            uplink.put(r, vat != null ? vat.parent(r) : job.source());
        }
        int depth = vat != null ? height.get(vat.root()) : s.topology().size();
        long roundTimeout = timeout * (Math.min(depth, 8) + 2);
        Set<String> silent = new LinkedHashSet<>();
        for (FaultSpec f : s.faults()) {
            if (f.kind() == FaultSpec.Kind.SILENT && job.common().members().contains(f.node())) {
                silent.add(f.node());
            }
        }
        MulticastPlan plan = new MulticastPlan(job.name(), mode, job.common().tenant(), wireJob, job.source(), job.common().bitSpace(),
                job.params(), uplink, roundTimeout, silent);
        List<DriverSpec> drivers = new ArrayList<>();
        drivers.add(DriverSpec.multicast(DriverSpec.Role.MULTICAST_SOURCE, plan, job.source()));
        for (String r : job.common().members()) {
            drivers.add(DriverSpec.multicast(DriverSpec.Role.MULTICAST_RECEIVER, plan, r));
        }
        long windows = job.params().windows();
        Duration deadline = Duration.ofMillis(30_000 + windows * job.params().maxRounds() * roundTimeout / 1_000_000 * 2);
        return new Phase(job, mode, wireJob, null, null, plan, vat, tables, drivers, Set.of(job.source()), List.of(job.source()),
                deadline, silent.isEmpty() ? "complete" : "partial", silent,
                (ina ? "ACK tree " + tree : "one unicast ACK per receiver") + ", ACK per " + (job.params().perWindow() ? "window" : "packet"));
    }

    /** The PS is the VAT root when that is a host; else the first host that is not a member; else the first member. */
    static String psHost(Scenario s, Routing routing, JobSpec.AllReduce job) {
        String root = job.tree().root();
        if (root != null && s.topology().node(root).isHost()) {
            return root;
        }
        Set<String> members = new HashSet<>(job.common().members());
        return s.topology().hosts().stream().map(Node::name).filter(h -> !members.contains(h)).findFirst()
                .orElse(job.common().members().get(0));
    }

    /** Tables of a baseline: the job is known everywhere, so its packets are routed, but nothing aggregates or replicates. */
    private static Map<String, JobTables> bareTables(Scenario s, JobSpec job, int wireJob, String mode) {
        Map<String, JobTables> tables = new LinkedHashMap<>();
        for (Node n : s.topology().nodes()) {
            tables.put(n.name(), JobTables.builder(job.name() + "/" + mode, job.common().tenant(), wireJob,
                    job.common().bitSpace().capacity(), job.common().completionTimeout().toNanos()).build());
        }
        return tables;
    }

    private static AllReducePlan plan(Scenario s, JobSpec.AllReduce job, String mode, int wireJob, Map<String, String> uplink,
                                      String psHost, long timeoutNanos) {
        Map<String, AllReducePlan.Straggler> stragglers = new LinkedHashMap<>();
        Set<String> silent = new LinkedHashSet<>();
        for (FaultSpec f : s.faults()) {
            if (f.node() == null || !job.common().members().contains(f.node())) {
                continue;
            }
            if (f.kind() == FaultSpec.Kind.STRAGGLER) {
                stragglers.put(f.node(), new AllReducePlan.Straggler(f.delay().toNanos(), f.jitter().toNanos(), Set.copyOf(f.chunks())));
            } else if (f.kind() == FaultSpec.Kind.SILENT) {
                silent.add(f.node());
            }
        }
        return new AllReducePlan(job.name(), mode, job.common().tenant(), wireJob, job.common().bitSpace(), job.common().members(),
                job.data(), uplink, psHost, timeoutNanos, stragglers, silent, job.data().seed());
    }

    private static Set<String> awaited(JobSpec.AllReduce job, Set<String> silent) {
        Set<String> a = new LinkedHashSet<>(job.common().members());
        a.removeAll(silent);
        return a;
    }

    /**
     * A generous bound: every window of chunks may wait for the root's timeout, plus room for
     * the data itself. A phase that passes it ends as failed, naming who did not finish.
     */
    private static Duration deadline(JobSpec.AllReduce job, int depth) {
        long rounds = (job.data().chunks() + job.data().window() - 1) / job.data().window();
        long timeoutMs = job.common().completionTimeout().toMillis();
        return Duration.ofMillis(30_000 + rounds * (depth + 2) * timeoutMs * 2);
    }

    private static int heights(Vat vat, String node, Map<String, Integer> out) {
        int h = 1;
        for (String c : vat.children(node)) {
            if (vat.aBm(c) != null) {
                h = Math.max(h, 1 + heights(vat, c, out));
            }
        }
        out.put(node, h);
        return h;
    }
}
