package org.bitina.usecase.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.job.Mode;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Recovery;
import org.bitina.usecase.RecoveryPolicy;
import org.bitina.wire.Flags;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.junit.jupiter.api.Test;

/**
 * An MoE token source without a network: its dispatch handed to the experts it names, their
 * combines handed back (the network's sum of several is the sum of their payloads).
 */
class MoeSourceTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 10 * MS;
    private static final int TOKENS = 4;
    private static final int HIDDEN = 8;
    private final BitSpace experts =
            new BitSpace(List.of("e1", "e2", "e3", "e4"), Map.of("e1", "h1", "e2", "h1", "e3", "h2", "e4", "h2"));

    private MoePlan plan(List<MoeSpec.PinnedRoute> pinned, double capacityFactor, int window) {
        MoeSpec.Params params = new MoeSpec.Params(
                2, HIDDEN, TOKENS, capacityFactor, 9, "group", pinned, window, new ExpertRouting.Uniform());
        return MoePlan.builder()
                .jobName("moe")
                .mode(Mode.INA)
                .tenant(1)
                .wireJob(5)
                .experts(experts)
                .sources(List.of("src"))
                .params(params)
                .timeoutNanos(TIMEOUT)
                .payloadBudget(4000)
                .build();
    }

    /** Every token pinned to e1 and e3: one group, one dispatch. */
    private MoePlan e1e3() {
        return plan(List.of(new MoeSpec.PinnedRoute(List.of(0, 1, 2, 3), List.of("e1", "e3"))), 2.0, 8);
    }

    /** What expert {@code name} sends back for {@code dispatch}. */
    private static Frame combine(MoePlan plan, String name, Frame dispatch) {
        MoeExpert e = new MoeExpert(plan, name);
        assertTrue(e.accepts(dispatch.packet()), name + " is named by the dispatch");
        List<EndpointDriver.Out> out = e.onDeliver(dispatch.withVia("src"), MS);
        assertEquals(1, out.size());
        return out.get(0).frame();
    }

    @Test
    void tokensThatChoseTheSameExpertsTravelInOneDispatchToExactlyThoseExperts() {
        MoePlan plan = e1e3();
        List<EndpointDriver.Out> out = new MoeSource(plan, "src").start(0);
        assertEquals(1, out.size(), "four tokens, one group");
        InaPacket p = out.get(0).frame().packet();
        assertEquals(PacketType.DISPATCH, p.header().type());
        assertEquals(experts.setOf(List.of("e1", "e3")), p.endpoints());
        MoePayload.Dispatch d = MoePayload.parseDispatch(((Payload.Float32) p.payload()).values(), HIDDEN);
        assertEquals(List.of(0, 2), Arrays.stream(d.experts()).boxed().toList());
        assertEquals(TOKENS, d.hidden().length);
        for (float[] g : d.gates()) {
            assertEquals(1.0, g[0] + g[1], 1e-6, "the gates of the experts kept sum to one");
        }
        assertFalse(new MoeExpert(plan, "e2").accepts(p), "e2 is not named");
    }

    @Test
    void bothExpertsAnswerAndEveryTokensCombineVerifies() {
        MoePlan plan = e1e3();
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        Frame fromE1 = combine(plan, "e1", dispatch);
        assertEquals(PacketType.COMBINE, fromE1.packet().header().type());
        assertEquals("src", fromE1.destination(), "a combine climbs toward where the dispatch came from");
        assertTrue(src.accepts(fromE1.packet()));
        src.onDeliver(fromE1, 2 * MS);
        assertFalse(src.done(), "e3 has not answered");
        src.onDeliver(combine(plan, "e3", dispatch), 3 * MS);
        assertTrue(src.done());
        DriverReport r = src.report();
        assertEquals(List.of(), r.mismatches());
        assertEquals(List.of(), r.partialChunks());
        assertEquals(TOKENS, r.verifiedChunks());
        assertEquals(TOKENS, r.received());
    }

    @Test
    void aCombineMissingAnExpertIsDispatchedAgainToExactlyThatExpert() {
        MoePlan plan = e1e3();
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        src.onDeliver(combine(plan, "e1", dispatch), 2 * MS);
        assertEquals(2 * TIMEOUT, src.nextDeadline(), "the C-BM timers have spoken by then");
        assertTrue(src.onTimer(2 * TIMEOUT - 1).isEmpty());
        List<EndpointDriver.Out> again = src.onTimer(2 * TIMEOUT);
        assertEquals(1, again.size());
        InaPacket p = again.get(0).frame().packet();
        assertTrue(p.header().has(Flags.RETRANSMIT));
        assertEquals(dispatch.packet().header().seq(), p.header().seq(), "the same packet, the same sequence id");
        assertEquals(plan.experts().setOf(List.of("e3")), p.endpoints(), "the miss set of the partial combine");
        src.onDeliver(combine(plan, "e3", again.get(0).frame()), 2 * TIMEOUT + MS);
        assertTrue(src.done());
        DriverReport r = src.report();
        assertEquals(List.of(), r.partialChunks());
        assertEquals(List.of(), r.mismatches());
        assertEquals(1L, r.stats().get(Recovery.RETRANSMISSIONS));
        assertEquals(MS, r.stats().get(Recovery.RECOVERY_NANOS), "from the re-dispatch to e3's answer");
    }

    @Test
    void aCombineWithOneExpertMissingIsReportedPartialNamingThatExpert() {
        MoePlan plan = e1e3();
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        src.onDeliver(combine(plan, "e1", dispatch), 2 * MS);
        int sends = 1;
        for (long t = src.nextDeadline(); !src.done(); t = src.nextDeadline()) {
            sends += src.onTimer(t).size();
            assertTrue(sends <= RecoveryPolicy.MOE_SENDS, "a bounded number of rounds");
        }
        assertEquals(RecoveryPolicy.MOE_SENDS, sends, "e3 was asked again until the dispatches ran out");
        assertTrue(src.done(), "what it holds then is final");
        DriverReport r = src.report();
        List<DriverReport.PartialChunk> expected = new ArrayList<>();
        for (int t = 0; t < TOKENS; t++) {
            expected.add(new DriverReport.PartialChunk(t, List.of("e3")));
        }
        assertEquals(expected, r.partialChunks());
        assertEquals(List.of(), r.mismatches(), "each partial output is checked against the experts it holds");
        assertEquals(TOKENS, r.verifiedChunks());
    }

    @Test
    void aCombineWithAWrongValueIsAMismatchForItsToken() {
        MoePlan plan = e1e3();
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        src.onDeliver(combine(plan, "e1", dispatch), 2 * MS);
        Frame fromE3 = combine(plan, "e3", dispatch);
        float[] v = ((Payload.Float32) fromE3.packet().payload()).values().clone();
        v[2 * HIDDEN + 5] += 0.5f;
        src.onDeliver(new Frame(fromE3.packet().withPayload(Payload.of(v)), "src", 3 * MS), 3 * MS);
        List<String> mismatches = src.report().mismatches();
        assertEquals(1, mismatches.size(), mismatches.toString());
        assertTrue(mismatches.get(0).startsWith("token 2 element 5"), mismatches.get(0));
        assertEquals(TOKENS - 1, src.report().verifiedChunks());
    }

    @Test
    void aCopyOfACombineCountsOnceAndAnOverlappingOneIsRefused() {
        MoePlan plan = e1e3();
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        Frame fromE1 = combine(plan, "e1", dispatch);
        Frame fromE3 = combine(plan, "e3", dispatch);
        src.onDeliver(fromE1, 2 * MS);
        src.onDeliver(fromE1, 2 * MS);
        // the network's sum of e1 and e3: overlaps the e1 held already
        float[] a = ((Payload.Float32) fromE1.packet().payload()).values();
        float[] b = ((Payload.Float32) fromE3.packet().payload()).values();
        float[] both = new float[a.length];
        for (int i = 0; i < a.length; i++) {
            both[i] = a[i] + b[i];
        }
        InaPacket sum = fromE1.packet()
                .withEndpoints(experts.setOf(List.of("e1", "e3")))
                .withPayload(Payload.of(both));
        src.onDeliver(new Frame(sum, "src", 3 * MS), 3 * MS);
        assertFalse(src.done());
        List<String> mismatches = src.report().mismatches();
        assertEquals(1, mismatches.size(), mismatches.toString());
        assertTrue(mismatches.get(0).contains("overlaps what is held"), mismatches.get(0));
        src.onDeliver(fromE3, 4 * MS);
        assertTrue(src.done());
        assertEquals(TOKENS, src.report().verifiedChunks(), "e1 counted once: every token verifies");
    }

    @Test
    void tokensOverAnExpertsCapacityAreDroppedAndNeverDispatched() {
        double factor = 1.0;
        MoePlan plan = plan(List.of(new MoeSpec.PinnedRoute(List.of(0, 1, 2, 3), List.of("e1", "e3"))), factor, 8);
        int capacity = (int) Math.ceil(factor * TOKENS * 2 / 4);
        MoeSource src = new MoeSource(plan, "src");
        Frame dispatch = src.start(0).get(0).frame();
        MoePayload.Dispatch d =
                MoePayload.parseDispatch(((Payload.Float32) dispatch.packet().payload()).values(), HIDDEN);
        assertEquals(capacity, d.hidden().length, "as many tokens as e1 and e3 each take");
        List<String> dropped = new ArrayList<>();
        for (int t = capacity; t < TOKENS; t++) {
            dropped.add("token " + t + " (dropped): over capacity at [e1, e3]");
        }
        assertEquals(dropped, src.report().dropped());
        src.onDeliver(combine(plan, "e1", dispatch), MS);
        src.onDeliver(combine(plan, "e3", dispatch), MS);
        assertTrue(src.done());
        assertEquals(TOKENS, src.report().verifiedChunks(), "dropped tokens have nothing to combine");
        assertEquals(List.of(), src.report().partialChunks());
    }

    @Test
    void aSourceKeepsAtMostItsWindowOfTokensInFlight() {
        // tokens 0 and 1 go to e1 and e3, tokens 2 and 3 to e2 and e4; a window of two tokens
        MoePlan plan = plan(
                List.of(
                        new MoeSpec.PinnedRoute(List.of(0, 1), List.of("e1", "e3")),
                        new MoeSpec.PinnedRoute(List.of(2, 3), List.of("e2", "e4"))),
                2.0,
                2);
        MoeSource src = new MoeSource(plan, "src");
        List<EndpointDriver.Out> first = src.start(0);
        assertEquals(1, first.size(), "the second group waits");
        Frame d1 = first.get(0).frame();
        assertTrue(src.onDeliver(combine(plan, "e1", d1), MS).isEmpty());
        List<EndpointDriver.Out> next = src.onDeliver(combine(plan, "e3", d1).withVt(5 * MS), 2 * MS);
        assertEquals(1, next.size(), "a finished group frees the window");
        Frame d2 = next.get(0).frame();
        assertEquals(FlatBitmap.of(4, 1, 3), d2.packet().endpoints());
        assertEquals(5 * MS, d2.vt(), "sent at the modelled time the combine that freed the window arrived");
        src.onDeliver(combine(plan, "e2", d2), 3 * MS);
        src.onDeliver(combine(plan, "e4", d2), 3 * MS);
        assertTrue(src.done());
        assertEquals(TOKENS, src.report().verifiedChunks());
    }
}
