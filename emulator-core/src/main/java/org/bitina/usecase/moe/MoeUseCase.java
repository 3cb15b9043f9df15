package org.bitina.usecase.moe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.job.Status;
import org.bitina.job.WireJobs;
import org.bitina.protocol.JobTables;
import org.bitina.scenario.JobReader;
import org.bitina.scenario.Scenario;
import org.bitina.topology.Bift;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
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
 * MoE dispatch and combine (seed 000 section 4): in INA mode every node holds the BIFT of
 * the experts' bit space and installs C-BMs as the dispatch passes (M2); the all-to-all
 * baseline (M6) only routes.
 */
public final class MoeUseCase implements UseCase<MoeSpec> {
    private static final JobReader READER = new MoeJobReader();

    @Override
    public JobReader reader() {
        return READER;
    }

    /**
     * The largest dispatch down and combine up that {@link MoeSource} builds: as many tokens of one
     * expert group (1 to top-K experts) as fit {@link #payloadBudget}, at least one; each names at
     * most top-K experts.
     */
    @Override
    public WireBudget.Packets packets(MoeSpec job, Scenario scenario) {
        int budget = payloadBudget(job, scenario);
        int h = job.params().hidden();
        long down = 0;
        long up = 0;
        for (int experts = 1; experts <= job.params().topK(); experts++) {
            int tokens = MoePayload.tokensIn(budget, experts, h);
            down = Math.max(down, MoePayload.dispatchBytes(experts, tokens, h));
            up = Math.max(up, MoePayload.combineBytes(tokens, h));
        }
        return new WireBudget.Packets(up, down, job.params().topK(), true, 0, "moe.hidden");
    }

    /**
     * The payload bytes a dispatch may carry: the smallest MTU less the header, the S2 tag (when
     * on) and the largest encoding of top-K experts on any link (host links and switch-to-switch
     * links differ when the job translates).
     */
    /**
     * L1: the modelled round trip a source's re-dispatch timer starts from: a full dispatch packet
     * from the farthest source to the farthest expert host and its combine back, plus a window of
     * such packets serialised on the slowest link.
     */
    private static long roundTrip(Scenario s, Routing routing, MoeSpec job, int budget) {
        Routing r = routing == null ? Routing.compute(s.topology()) : routing;
        List<String> hosts =
                job.experts().stream().map(MoeSpec.Expert::host).distinct().toList();
        long bytes = PacketCodec.HEADER_BYTES + (job.common().bitSpace().capacity() + 7) / 8 + budget + 16;
        long rtt = 0;
        for (String src : job.sources()) {
            rtt = Math.max(
                    rtt,
                    RoundTrip.of(
                            s,
                            r,
                            hosts,
                            h -> h.equals(src) ? null : src,
                            src,
                            bytes,
                            job.params().window()));
        }
        return rtt;
    }

    static int payloadBudget(MoeSpec job, Scenario s) {
        int mtu = s.topology().links().stream()
                .mapToInt(l -> l.spec().mtu())
                .min()
                .orElse(4096);
        return mtu
                - PacketCodec.HEADER_BYTES
                - s.security().tagBytes()
                - WireBudget.largestSetBytes(
                        FlatBitmap.full(job.common().bitSpace().capacity()),
                        job.params().topK(),
                        job.common().encoding());
    }

    /**
     * The model's weights (two hidden x hidden matrices per expert, the router) and, per source
     * and token, its input, its accumulated combine, its expected output and a part per chosen
     * expert in flight (floats of the hidden size each).
     */
    @Override
    public long memoryBytes(MoeSpec job) {
        long h = job.params().hidden();
        long weights = 4L * h * (2L * h * job.experts().size() + job.experts().size());
        long tokens = (long) job.params().tokensPerSource() * job.sources().size();
        return weights + 4L * h * tokens * (3L + job.params().topK());
    }

    @Override
    public Class<MoeSpec> spec() {
        return MoeSpec.class;
    }

    @Override
    public List<Class<? extends DriverSpec>> drivers() {
        return List.of(MoeDriver.class);
    }

    /**
     * T tokens per source, each a hidden vector of float32 cut to the payload budget, to at most K
     * experts: INA dispatches at most one copy per (token, expert) pair and each expert answers once,
     * and every switch combines a token at most once; all-to-all sends each pair's dispatch and answer
     * by unicast. Each window of tokens is a round trip out and one back.
     */
    @Override
    public PhaseEstimate estimate(MoeSpec job, Phase p, Scenario s, Routing routing) {
        MoeSpec.Params m = job.params();
        long tokens = (long) job.sources().size() * m.tokensPerSource();
        long tokenBytes = 4L * m.hidden();
        long perToken =
                Math.max(1, (tokenBytes + Math.max(1, payloadBudget(job, s)) - 1) / Math.max(1, payloadBudget(job, s)));
        long pairs = tokens * m.topK() * perToken;
        long packets = p.mode().inNetwork()
                ? 2 * pairs + tokens * perToken * s.topology().switches().size()
                : 2 * pairs;
        long windows = (m.tokensPerSource() + m.window() - 1) / Math.max(1, m.window());
        return new PhaseEstimate(packets, (long) m.tokensPerSource() * m.topK() * tokenBytes, 2 * windows);
    }

    /** Every source keeps {@code window} tokens in flight; a token holds one C-BM entry per branch switch. */
    @Override
    public int stateEntries(MoeSpec job) {
        long n = (long) job.sources().size()
                * Math.min(job.params().window(), job.params().tokensPerSource());
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    @Override
    public Mode fallback() {
        return MoeJobReader.ALL_TO_ALL;
    }

    @Override
    public Phase baseline(MoeSpec job, Mode mode, Scenario s, Routing routing) {
        return phase(s, routing, job, mode);
    }

    @Override
    public List<Phase> plan(MoeSpec job, Scenario s, Routing routing) {
        List<Phase> phases = new ArrayList<>();
        phases.add(phase(s, routing, job, Mode.INA));
        if (job.common().baselines().contains(MoeJobReader.ALL_TO_ALL)) {
            phases.add(phase(s, routing, job, MoeJobReader.ALL_TO_ALL));
        }
        return phases;
    }

    /** The expert hosts that are silent (a silent source is not a fault this version models). */
    private static Set<String> silentHosts(Plans.EndpointFaults faults, MoeSpec job) {
        Set<String> silent = new LinkedHashSet<>(faults.silent());
        silent.retainAll(job.common().members());
        return silent;
    }

    private static Phase phase(Scenario s, Routing routing, MoeSpec job, Mode mode) {
        boolean ina = mode.inNetwork();
        int wireJob = (ina ? WireJobs.INA : WireJobs.ALL_TO_ALL).of(job.common().id());
        long timeout = job.common().completionTimeout().toNanos();
        Map<String, JobTables> tables = new LinkedHashMap<>();
        if (ina) {
            Map<String, Bift> bifts = Bift.buildAll(
                    routing,
                    s.topology().nodes().stream().map(Node::name).toList(),
                    job.common().bitSpace());
            for (Node n : s.topology().nodes()) {
                tables.put(
                        n.name(),
                        JobTables.builder(
                                        job.name(),
                                        job.common().tenant(),
                                        wireJob,
                                        job.common().bitSpace().capacity(),
                                        timeout)
                                .bift(bifts.get(n.name()))
                                .build());
            }
        } else {
            tables = Plans.bareTables(s, job, wireJob, mode);
        }
        // the experts' hosts may straggle or be silent; a source may straggle
        List<String> endpoints = new ArrayList<>(job.common().members());
        job.sources().stream().filter(x -> !endpoints.contains(x)).forEach(endpoints::add);
        Plans.EndpointFaults faults = Plans.EndpointFaults.of(s, endpoints, false);
        int budget = payloadBudget(job, s);
        MoePlan plan = MoePlan.builder()
                .jobName(job.name())
                .mode(mode)
                .tenant(job.common().tenant())
                .wireJob(wireJob)
                .experts(job.common().bitSpace())
                .sources(job.sources())
                .params(job.params())
                .timeoutNanos(timeout)
                .recovery(job.common().recovery())
                .congestionControl(job.common().congestionControl())
                .payloadBudget(budget)
                .stragglers(faults.stragglers())
                .silent(silentHosts(faults, job))
                .rttNanos(roundTrip(s, routing, job, budget))
                .build();
        List<DriverSpec> drivers = new ArrayList<>();
        for (MoeSpec.Expert e : job.experts()) {
            drivers.add(new MoeDriver(MoeDriver.Role.EXPERT, plan, e.host(), e.name()));
        }
        for (String src : job.sources()) {
            drivers.add(new MoeDriver(MoeDriver.Role.SOURCE, plan, src, src));
        }
        Set<String> silentExperts = new LinkedHashSet<>();
        job.experts().stream().filter(e -> plan.silent().contains(e.host())).forEach(e -> silentExperts.add(e.name()));
        Duration deadline =
                Duration.ofMillis(30_000 + 20 * job.common().completionTimeout().toMillis());
        return Phase.builder()
                .job(job)
                .mode(mode)
                .wireJob(wireJob)
                .tables(tables)
                .drivers(drivers)
                .awaited(new LinkedHashSet<>(job.sources()))
                .roots(job.sources())
                .uplinks(Set.copyOf(job.sources()))
                .bitSpace(job.common().bitSpace())
                .timing(new Phase.Timing(job.params().tokensPerSource(), timeout, faults.maxStraggleNanos(), deadline))
                .expected(Phase.Expected.unless(silentExperts, Status.PARTIAL))
                .note((ina ? "dispatch by bitmap multicast, combine at C-BM branch nodes" : "all-to-all unicast") + ", "
                        + job.params().granularity() + " granularity, top-"
                        + job.params().topK())
                .build();
    }

    @Override
    public String tolerance() {
        return MoeSource.TOLERANCE;
    }

    @Override
    public String unit() {
        return "token";
    }

    /** Every mode's source uplink bytes (M6 compares them); none for a phase that moved none. */
    @Override
    public List<Class<? extends KindReport>> reportTypes() {
        return List.of(MoeReport.class);
    }

    @Override
    public KindReport report(MoeSpec job, Phase p, PhaseFigures f) {
        if (f.sourceUplinkBytes() == 0) {
            return null;
        }
        String busiest = null;
        long most = -1;
        long taken = 0;
        long dropped = 0;
        for (MoeSpec.Expert e : job.experts()) {
            long t = f.stat(MoeSource.EXPERT_TOKENS + e.name());
            taken += t;
            dropped += f.stat(MoeSource.EXPERT_DROPPED + e.name());
            if (t > most) {
                most = t;
                busiest = e.name();
            }
        }
        return new MoeReport(f.sourceUplinkBytes(), job.params().routing().describe(), busiest, most, taken, dropped);
    }

    /** One source, h1, and every other host an expert (an expert's bit is its own: no bit-space line). */
    @Override
    public ChaosJob chaos() {
        return (r, hosts, top, star) ->
                "  sources = [h1]\n  experts = [" + String.join(", ", hosts.subList(1, hosts.size()))
                        + "]\n  moe { top-k = 2, hidden = 64, tokens-per-source = " + (4 + r.nextInt(12))
                        + ", capacity-factor = 2.0, seed = " + r.nextInt(1000)
                        + ", granularity = " + ChaosJob.pick(r, "group", "pair") + " }\n"
                        + ChaosJob.pick(r, "", "  baselines = [all-to-all]\n");
    }
}
