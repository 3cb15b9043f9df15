package org.bitina.usecase.multicast;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Dcqcn;
import org.bitina.protocol.Frame;
import org.bitina.protocol.MissSet;
import org.bitina.protocol.TimeCurve;
import org.bitina.usecase.CompletionTimes;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Straggler;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;

/**
 * The source of a reliable multicast (R1, R3, R4): sends the block window by window to the
 * receiver bitmap, collects the ACK bitmaps, and repairs: when a round ends (every key
 * acknowledged, a partial ACK, or the round timer) it computes each key's miss set
 * (target AND NOT acknowledged) and multicasts the retransmission to exactly that set.
 * Rounds repeat until every live receiver has the window; a receiver still missing after
 * {@code maxRounds} is reported unreachable and left out of later windows, so the run ends.
 */
public final class MulticastSource implements EndpointDriver {
    private final MulticastPlan plan;
    private final String host;
    private final MulticastData data;
    private final int packets;
    private final int windowSize;
    private EndpointSet live;
    private EndpointSet unreachable;
    private int window = -1;
    private int round;
    private long roundDeadline = Long.MAX_VALUE;
    /** Per key of the current window (window id, or packet seq): who was asked this round, who acknowledged so far. */
    private final Map<Integer, EndpointSet> target = new LinkedHashMap<>();

    private final Map<Integer, EndpointSet> acked = new LinkedHashMap<>();
    private final Map<Integer, Boolean> roundFinal = new LinkedHashMap<>();
    private long acksTotal;
    private long roundsTotal;
    private int maxRoundUsed;
    private long lastVt;
    /** Per window, when it ended (every live receiver acknowledged it, or the rounds ran out). */
    private CompletionTimes times;

    private long dataPackets;
    private final List<DriverReport.PartialChunk> unreachableAt = new ArrayList<>();
    private final SplittableRandom jitter;
    /** Under congestion control: the source's queue pair (one per group), when it may send next, its rate over time. */
    private final Dcqcn rate;

    private long qpFree;
    private final TimeCurve rateCurve = new TimeCurve();

    public MulticastSource(MulticastPlan plan, String host) {
        this.plan = plan;
        this.host = host;
        this.data = new MulticastData(plan.params());
        this.packets = plan.params().packets();
        this.windowSize = plan.params().window();
        // the receivers' bits: with bit-space = hosts or explicit BFR-ids the space holds more than them
        this.live = plan.receivers().setOf(plan.members());
        this.unreachable = FlatBitmap.of(plan.receivers().capacity());
        this.jitter = new SplittableRandom(plan.params().seed() ^ 0x5EEDL);
        this.rate = plan.congestion() == null ? null : new Dcqcn(plan.congestion(), plan.lineBps());
    }

    @Override
    public boolean accepts(InaPacket p) {
        return p.header().type() == PacketType.ACK;
    }

    @Override
    public List<Out> start(long now) {
        return nextWindow(now, 0);
    }

    private List<Out> nextWindow(long now, long vt) {
        if (times == null) {
            times = new CompletionTimes(plan.params().windows());
        }
        times.done(window, vt);
        window++;
        round = 0;
        target.clear();
        acked.clear();
        roundFinal.clear();
        if (window >= plan.params().windows() || live.isEmpty()) {
            window = plan.params().windows();
            roundDeadline = Long.MAX_VALUE;
            return List.of();
        }
        for (int key : keys()) {
            target.put(key, live);
            acked.put(key, FlatBitmap.of(live.capacity()));
        }
        return sendRound(now, vt);
    }

    private List<Integer> keys() {
        List<Integer> ks = new ArrayList<>();
        if (plan.params().perWindow()) {
            ks.add(window);
        } else {
            for (int s = window * windowSize; s < Math.min(packets, (window + 1) * windowSize); s++) {
                ks.add(s);
            }
        }
        return ks;
    }

    private List<Out> sendRound(long now, long vt) {
        List<Out> out = new ArrayList<>();
        roundsTotal++;
        maxRoundUsed = Math.max(maxRoundUsed, round);
        roundFinal.clear();
        // a straggling source sends each round late, and its round timer starts when the data leave
        Straggler straggler = plan.stragglers().get(host);
        long delay = straggler == null ? 0 : straggler.draw(jitter);
        long last = vt + delay;
        for (int s = window * windowSize; s < Math.min(packets, (window + 1) * windowSize); s++) {
            int key = plan.params().perWindow() ? window : s;
            EndpointSet to = target.get(key);
            if (to.isEmpty()) {
                continue;
            }
            InaHeader h = InaHeader.of(PacketType.DATA, plan.tenant(), plan.wireJob(), s)
                    .withDestination(round)
                    .withEntropy(key)
                    .withFlags(round > 0 ? Flags.RETRANSMIT : 0);
            InaPacket packet = new InaPacket(h, to, Payload.of(data.packet(s)));
            long leaves = vt + delay;
            if (rate != null) {
                // under DCQCN the round's packets leave one serialisation at the group's rate apart
                leaves = Math.max(leaves, qpFree);
                long bps = rate.rateAt(now); // the rate as the round is sent (its clock only goes forward)
                rateCurve.record(leaves, bps);
                qpFree = leaves + -Math.floorDiv(-8L * PacketCodec.encodedSize(packet) * 1_000_000_000L, bps);
                last = Math.max(last, leaves);
            }
            out.add(new Out(new Frame(packet, null, leaves, host), delay));
            dataPackets++;
        }
        // the round's timer starts when its last packet leaves
        roundDeadline = now + delay + Math.max(0, last - (vt + delay)) + plan.roundTimeout(round);
        return out;
    }

    @Override
    public List<Out> onDeliver(Frame frame, long now) {
        InaPacket p = frame.packet();
        int key = p.header().entropy();
        acksTotal++;
        lastVt = Math.max(lastVt, frame.vt());
        if (!acked.containsKey(key)) {
            return List.of(); // an ACK of a window already finished
        }
        if (rate != null && p.header().has(Flags.CE)) {
            rate.cnp(now); // some receiver's CNP, ORed into this ACK on its way up
        }
        // ACK bitmaps of any round are news: those receivers hold the data
        acked.put(key, acked.get(key).or(p.endpoints()));
        if (p.header().destination() == round && p.header().has(Flags.PARTIAL)) {
            roundFinal.put(key, true); // the ACK tree gave up on the rest for this round
        }
        return maybeEndRound(now, frame.vt(), false);
    }

    @Override
    public List<Out> onTimer(long now) {
        return now >= roundDeadline ? maybeEndRound(now, lastVt, true) : List.of();
    }

    @Override
    public long nextDeadline() {
        return roundDeadline;
    }

    private List<Out> maybeEndRound(long now, long vt, boolean timedOut) {
        boolean allAcked = true;
        boolean allFinal = true;
        for (Map.Entry<Integer, EndpointSet> e : target.entrySet()) {
            boolean full = e.getValue().isSubsetOf(acked.get(e.getKey()));
            allAcked &= full;
            allFinal &= full || roundFinal.getOrDefault(e.getKey(), false);
        }
        if (allAcked) {
            return nextWindow(now, vt);
        }
        if (!allFinal && !timedOut) {
            return List.of();
        }
        // repair: each key's miss set, exactly (R3)
        EndpointSet missing = FlatBitmap.of(live.capacity());
        for (Map.Entry<Integer, EndpointSet> e : target.entrySet()) {
            EndpointSet miss = MissSet.of(live, acked.get(e.getKey()));
            target.put(e.getKey(), miss);
            missing = missing.or(miss);
        }
        if (round + 1 >= plan.params().maxRounds()) {
            unreachable = unreachable.or(missing);
            live = live.andNot(missing);
            unreachableAt.add(
                    new DriverReport.PartialChunk(window, plan.receivers().names(missing)));
            return nextWindow(now, vt);
        }
        round++;
        return sendRound(now, vt);
    }

    @Override
    public boolean done() {
        return window >= plan.params().windows();
    }

    @Override
    public DriverReport report() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("windows", (long) plan.params().windows());
        stats.put("rounds", roundsTotal);
        stats.put("retransmissionRounds", (long) maxRoundUsed);
        stats.put("ackPacketsIntoSource", acksTotal);
        stats.put("dataPackets", dataPackets);
        stats.putAll(plan.roundPolicy().stats());
        if (rate != null) {
            stats.put("cnpsTaken", rate.cnps());
            stats.put("rateCuts", rate.cuts());
            stats.put(DriverReport.LOWEST_RATE, rate.lowestBps());
        }
        return DriverReport.of(host, DriverReport.Role.MULTICAST_SOURCE)
                .chunks(plan.params().windows())
                .received(Math.min(window, plan.params().windows()))
                .partialChunks(unreachableAt)
                .lastVt(lastVt)
                .verifiedChunks(done() ? plan.params().windows() : 0)
                .done(done())
                .stats(stats)
                .pace(rate == null ? null : rateCurve.range())
                .build()
                .withUnitTimes(times == null ? new CompletionTimes(plan.params().windows()) : times);
    }
}
