package org.bitina.usecase.multicast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.AutoVat;
import org.bitina.topology.Bift;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Vat;
import org.bitina.usecase.ChaosJob;
import org.bitina.usecase.DriverSpec;
import org.bitina.usecase.KindReport;
import org.bitina.usecase.Phase;
import org.bitina.usecase.PhaseEstimate;
import org.bitina.usecase.PhaseFigures;
import org.bitina.usecase.Plans;
import org.bitina.usecase.UseCase;
import org.bitina.usecase.WireBudget;
import org.bitina.usecase.reduction.RoundTrip;
import org.bitina.wire.PacketCodec;

/**
 * Reliable multicast (seed 000 section 5): every node holds the BIFT of the receivers' bit
 * space for the data; the ACK tree is the automatic VAT rooted at the source (pre-configured
 * and composed) and/or C-BMs the data installs (self-installed and composed
 * retransmissions). In the unicast-ACK baseline (R6) nothing aggregates and every receiver
 * ACKs the source.
 */
public final class MulticastUseCase implements UseCase<MulticastSpec> {
    private static final JobReader READER = new ReliableMulticastJobReader();

    @Override
    public JobReader reader() {
        return READER;
    }

    /** Data packets down; ACKs (no payload) up, over the A-BM tree or the one retransmissions install. */
    @Override
    public WireBudget.Packets packets(MulticastSpec job, Scenario scenario) {
        return new WireBudget.Packets(0, job.params().packetBytes(), Integer.MAX_VALUE, true, 0, "data.packet");
    }

    /** The block at the source and its reference, and a copy held by every receiver. */
    @Override
    public long memoryBytes(MulticastSpec job) {
        return job.params().bytes() * (2L + job.common().members().size());
    }

    @Override
    public Class<MulticastSpec> spec() {
        return MulticastSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(MulticastDriver.class);
    }

    /**
     * P data packets to R receivers: INA multicasts each once and gets an ACK per receiver (a packet's
     * or its window's) and at most one aggregate ACK from every switch; the baseline unicasts each to
     * every receiver and gets R ACKs. Each window is a round trip.
     */
    @Override
    public PhaseEstimate estimate(MulticastSpec job, Phase p, Scenario s, Routing routing) {
        MulticastSpec.Params m = job.params();
        long packets = m.packets();
        long receivers = job.common().members().size();
        boolean ina = p.mode().inNetwork();
        long sent = ina ? packets * (1 + receivers + s.topology().switches().size()) : 2 * packets * receivers;
        return new PhaseEstimate(sent, (ina ? 1 : receivers) * m.bytes(), m.windows());
    }

    /**
     * The source sends one window at a time and its ACKs aggregate per window or per packet of it,
     * scoped by round: a round's entries still waiting for a lost receiver's ACK live on beside
     * the next round's until their timers: two rounds' worth.
     */
    @Override
    public int stateEntries(MulticastSpec job) {
        return 2 * (job.params().perWindow() ? 1 : job.params().window());
    }

    @Override
    public Mode fallback() {
        return ReliableMulticastJobReader.UNICAST_ACK;
    }

    @Override
    public Phase baseline(MulticastSpec job, Mode mode, Scenario s, Routing routing) {
        return phase(s, routing, job, mode);
    }

    @Override
    public List<Phase> plan(MulticastSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        phases.add(phase(s, routing, job, Mode.INA));
        if (job.common().baselines().contains(ReliableMulticastJobReader.UNICAST_ACK)) {
            phases.add(phase(s, routing, job, ReliableMulticastJobReader.UNICAST_ACK));
        }
        return phases;
    }

    private static Phase phase(Scenario s, Routing routing, MulticastSpec job, Mode mode) {
        boolean ina = mode.inNetwork();
        int wireJob =
                (ina ? WireJobs.INA : WireJobs.UNICAST_ACK).of(job.common().id());
        long timeout = job.common().completionTimeout().toNanos();
        String tree = job.params().ackTree();
        Vat vat = null;
        Map<String, Integer> height = new HashMap<>();
        if (ina && !tree.equals("self-installed")) {
            Vat.Result r = AutoVat.build(
                    s.topology(), routing, job.common().bitSpace(), job.common().members(), job.source());
            if (r.vat() == null) {
                throw new IllegalStateException(
                        "cannot build the ACK tree of job '" + job.name() + "': " + r.defects());
            }
            vat = r.vat();
            Plans.heights(vat, vat.root(), height);
        }
        JobTables.DataInstall install = !ina
                ? JobTables.DataInstall.NEVER
                : switch (tree) {
                    case "self-installed" -> JobTables.DataInstall.ALWAYS;
                    case "composed" -> JobTables.DataInstall.RETRANSMISSIONS;
                    default -> JobTables.DataInstall.NEVER;
                };
        int depth = vat != null ? height.get(vat.root()) : s.topology().size();
        long roundTimeout = timeout * (Math.min(depth, 8) + 2);
        // silent receivers; stragglers among the receivers and the source itself
        List<String> endpoints = new ArrayList<>(job.common().members());
        endpoints.add(job.source());
        Plans.EndpointFaults faults = Plans.EndpointFaults.of(s, endpoints, false);
        Set<String> silent = new LinkedHashSet<>(faults.silent());
        silent.retainAll(job.common().members());
        Map<String, Long> completionRule = new HashMap<>();
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat != null && vat.aBm(n.name()) != null;
            completionRule.put(n.name(), vatNode ? timeout * height.get(n.name()) : timeout);
        }
        AckTimers timers = timers(s, routing, job, vat, completionRule, roundTimeout, faults, !silent.isEmpty());
        Map<String, JobTables> tables = new LinkedHashMap<>();
        Map<String, Bift> bifts = Bift.buildAll(
                routing,
                s.topology().nodes().stream().map(Node::name).toList(),
                job.common().bitSpace());
        for (Node n : s.topology().nodes()) {
            boolean vatNode = vat != null && vat.aBm(n.name()) != null;
            long nodeTimeout = timers.nodeNanos().get(n.name());
            tables.put(
                    n.name(),
                    JobTables.builder(
                                    job.name(),
                                    job.common().tenant(),
                                    wireJob,
                                    job.common().bitSpace().capacity(),
                                    nodeTimeout)
                            .mode(mode)
                            .bift(bifts.get(n.name()))
                            .vatNode(vatNode ? vat.aBm(n.name()) : null, vatNode ? vat.parent(n.name()) : null)
                            .root(vat != null && n.name().equals(vat.root()))
                            .dataInstall(install)
                            .rootMulticasts(false)
                            .build());
        }
        Map<String, String> uplink = new LinkedHashMap<>();
        for (String r : job.common().members()) {
            uplink.put(r, vat != null ? vat.parent(r) : job.source());
        }
        MulticastPlan plan = MulticastPlan.builder()
                .jobName(job.name())
                .mode(mode)
                .tenant(job.common().tenant())
                .wireJob(wireJob)
                .source(job.source())
                .receivers(job.common().bitSpace())
                .params(job.params())
                .uplink(uplink)
                .recovery(job.common().recovery())
                .roundTimeoutNanos(roundTimeout)
                .roundBaseNanos(timers.roundBaseNanos())
                .stragglers(faults.stragglers())
                .silent(silent)
                .members(List.copyOf(job.common().members()))
                .congestion(
                        job.common().congestionControl() ? s.congestion() : null,
                        s.topology().hostBps(job.source()))
                .build();
        List<DriverSpec> drivers = new ArrayList<>();
        drivers.add(new MulticastDriver(MulticastDriver.Role.SOURCE, plan, job.source()));
        for (String r : job.common().members()) {
            drivers.add(new MulticastDriver(MulticastDriver.Role.RECEIVER, plan, r));
        }
        long windows = job.params().windows();
        Duration deadline =
                Duration.ofMillis(30_000 + windows * job.params().maxRounds() * roundTimeout / 1_000_000 * 2);
        return Phase.builder()
                .job(job)
                .mode(mode)
                .wireJob(wireJob)
                .tables(tables)
                .drivers(drivers)
                .awaited(Set.of(job.source()))
                .roots(List.of(job.source()))
                .bitSpace(job.common().bitSpace())
                .timing(new Phase.Timing(job.params().windows(), roundTimeout, faults.maxStraggleNanos(), deadline))
                .expected(Phase.Expected.unless(silent, Status.PARTIAL))
                .note((ina ? "ACK tree " + tree : "one unicast ACK per receiver") + ", ACK per "
                        + (job.params().perWindow() ? "window" : "packet")
                        + (vat != null ? "; A-BMs " + vat.aBms() : ""))
                .build();
    }

    /**
     * The round and node timers from the modelled round trip ({@link AckTimers}): the farthest receiver's data
     * path and its ACK's, up the pre-configured tree or straight back along the data's path (the self-installed
     * tree), whichever is longer, with a window of packets and every receiver's ACK serialised on the slowest link.
     */
    private static AckTimers timers(
            Scenario s,
            Routing routing,
            MulticastSpec job,
            Vat vat,
            Map<String, Long> completionRule,
            long roundTimeout,
            Plans.EndpointFaults faults,
            boolean silent) {
        String source = job.source();
        List<String> members = job.common().members();
        int capacity = job.common().bitSpace().capacity();
        long bytes =
                PacketCodec.HEADER_BYTES + (capacity + 7) / 8 + job.params().packetBytes() + 16L;
        long ackBytes = PacketCodec.HEADER_BYTES + (capacity + 7) / 8 + 16L;
        int window = job.params().window();
        long rtt = RoundTrip.of(s, routing, members, m -> m.equals(source) ? null : source, source, bytes, window);
        if (vat != null) {
            rtt = Math.max(rtt, RoundTrip.of(s, routing, members, vat::parent, source, bytes, window));
        }
        if (rtt > 0) {
            long slowest = 0;
            for (Link l : s.topology().links()) {
                slowest = Math.max(slowest, l.spec().serializationNanos(ackBytes));
            }
            rtt += members.size() * slowest;
        }
        List<String[]> upward = new ArrayList<>();
        for (String m : members) {
            List<String> path = routing.path(source, m);
            for (int i = 1; i < path.size(); i++) {
                upward.add(new String[] {path.get(i), path.get(i - 1)});
            }
        }
        if (vat != null) {
            for (String n : completionRule.keySet()) {
                String p = vat.aBm(n) != null || members.contains(n) ? vat.parent(n) : null;
                if (p != null) {
                    upward.add(new String[] {n, p});
                }
            }
        }
        return AckTimers.of(source, upward, completionRule, roundTimeout, rtt, faults.maxStraggleNanos(), silent);
    }

    @Override
    public String unit() {
        return "window";
    }

    @Override
    public List<Class<? extends KindReport>> reportTypes() {
        return List.of(MulticastReport.class);
    }

    @Override
    public KindReport report(MulticastSpec job, Phase p, PhaseFigures f) {
        return new MulticastReport(
                f.stat("ackPacketsIntoSource"),
                f.stat("retransmissionRounds"),
                Math.max(1, f.endpointStats().getOrDefault("windows", 1L)),
                Math.max(1, f.endpointStats().getOrDefault("rounds", 1L)),
                f.stat("duplicatesSuppressed"));
    }

    /** A block from h1 to every host, its ACK tree composed (R2), at most 20 rounds. */
    @Override
    public ChaosJob chaos() {
        return (r, hosts, top, star) ->
                "  source = h1\n  receivers = all\n  data { bytes = " + 2000 * (1 + r.nextInt(6))
                        + ", packet = 2000, window = " + (1 + r.nextInt(3))
                        + ", seed = " + r.nextInt(1000) + " }\n  ack { per = " + ChaosJob.pick(r, "packet", "window")
                        + ", tree = composed }\n  max-rounds = 20\n"
                        + ChaosJob.pick(r, "", "  baselines = [unicast-ack]\n")
                        + ChaosJob.bitSpace(r, hosts);
    }
}
