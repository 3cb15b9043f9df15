package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Frame;
import org.bitina.topology.BitSpace;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.EndpointDriver;
import org.bitina.usecase.Straggler;
import org.bitina.wire.ElementType;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** The ring baseline without a network: three workers whose frames are handed straight to their successor. */
class RingWorkerTest {
    private static final long MS = 1_000_000L;
    private static final List<String> MEMBERS = List.of("w1", "w2", "w3");
    private final BitSpace space = new BitSpace(MEMBERS);
    /** Five chunks over three members: owners 0, 1, 2, 0, 1. */
    private final DataSpec data = new DataSpec(5 * 16, ElementType.INT32, ReductionOp.SUM, 16, 2, 11, 1 << 16);

    private final AllReduceData values = new AllReduceData(data);

    private AllReducePlan plan(Map<String, Straggler> stragglers, Set<String> silent) {
        return new AllReducePlan(
                "j", "ring", 1, 1_000_001, space, MEMBERS, data, Map.of(), null, 10 * MS, stragglers, silent, 3);
    }

    /** The ring wired in a loop: every frame goes to the worker it names; what each worker got is kept. */
    private static final class Loop {
        final Map<String, RingWorker> workers = new LinkedHashMap<>();
        final Map<String, List<InaPacket>> got = new LinkedHashMap<>();
        int frames;

        Loop(AllReducePlan plan) {
            plan.members().forEach(m -> {
                workers.put(m, new RingWorker(plan, m));
                got.put(m, new ArrayList<>());
            });
        }

        void run() {
            Deque<EndpointDriver.Out> wire = new ArrayDeque<>();
            workers.values().forEach(w -> wire.addAll(w.start(0)));
            while (!wire.isEmpty()) {
                Frame f = wire.poll().frame();
                frames++;
                RingWorker to = workers.get(f.destination());
                assertTrue(to.accepts(f.packet()));
                got.get(f.destination()).add(f.packet());
                wire.addAll(to.onDeliver(f, frames));
            }
        }
    }

    private int[] sum(int chunk) {
        int[] s = new int[data.chunk()];
        for (int b = 0; b < MEMBERS.size(); b++) {
            int[] v = ((Payload.Int32) values.payload(b, chunk)).values();
            for (int i = 0; i < s.length; i++) {
                s[i] += v[i];
            }
        }
        return s;
    }

    @Test
    void threeWorkersInALoopEachEndWithEveryChunkReducedAndVerified() {
        Loop ring = new Loop(plan(Map.of(), Set.of()));
        ring.run();
        for (RingWorker w : ring.workers.values()) {
            DriverReport r = w.report();
            assertTrue(w.done(), r.endpoint());
            assertEquals(List.of(), r.mismatches(), r.endpoint());
            assertEquals(data.chunks(), r.received(), r.endpoint());
            assertEquals(data.chunks(), r.verifiedChunks(), r.endpoint());
        }
        // the all-gather frames carry the full sum, computed here from the workers' data
        EndpointSet full = space.setOf(MEMBERS);
        for (List<InaPacket> packets : ring.got.values()) {
            for (InaPacket p : packets) {
                if (p.endpoints().equals(full)) {
                    assertTrue(
                            Arrays.equals(sum((int) p.header().seq()), ((Payload.Int32) p.payload()).values()),
                            p.toString());
                }
            }
        }
        assertEquals(data.chunks() * 2 * (MEMBERS.size() - 1), ring.frames, "every chunk crosses 2(N-1) ring links");
    }

    @Test
    void reduceScatterStartsAtTheOwnersSuccessorAndEndsAtTheOwner() {
        Loop ring = new Loop(plan(Map.of(), Set.of()));
        for (String m : MEMBERS) {
            int index = MEMBERS.indexOf(m);
            List<EndpointDriver.Out> out = ring.workers.get(m).start(0);
            List<Long> chunks =
                    out.stream().map(o -> o.frame().packet().header().seq()).toList();
            List<Long> expected = new ArrayList<>();
            for (int c = 0; c < data.chunks(); c++) {
                if ((c % MEMBERS.size() + 1) % MEMBERS.size() == index) {
                    expected.add((long) c);
                }
            }
            assertEquals(expected, chunks, m + " starts the chunks of its predecessor");
            String successor = MEMBERS.get((index + 1) % MEMBERS.size());
            for (EndpointDriver.Out o : out) {
                InaPacket p = o.frame().packet();
                assertEquals(successor, o.frame().destination());
                assertEquals(PacketType.UNICAST, p.header().type());
                assertEquals(1_000_001, p.header().job());
                assertEquals(FlatBitmap.of(3, index), p.endpoints(), "only its own contribution");
            }
        }
    }

    @Test
    void aSilentMemberStopsTheRingSoNobodyFinishesAndNobodyIsWrong() {
        Loop ring = new Loop(plan(Map.of(), Set.of("w2")));
        ring.run();
        for (RingWorker w : ring.workers.values()) {
            assertFalse(w.done(), w.report().endpoint());
            assertEquals(0, w.report().received(), "every chunk's reduce-scatter passes w2");
            assertEquals(List.of(), w.report().mismatches());
        }
    }

    @Test
    void aStragglerHoldsBackOnlyTheChunksItIsSlowOn() {
        Straggler slow = new Straggler(7 * MS, 0, Set.of(2L));
        RingWorker w3 = new RingWorker(plan(Map.of("w3", slow), Set.of()), "w3");
        // w3 starts the chunks owned by w2: 1 and 4; chunk 2 passes it in the reduce-scatter
        for (EndpointDriver.Out o : w3.start(0)) {
            assertEquals(
                    0,
                    o.wallDelayNanos(),
                    "chunk " + o.frame().packet().header().seq());
        }
        InaHeader h = InaHeader.of(PacketType.UNICAST, 1, 1_000_001, 2).withOp(ReductionOp.SUM);
        Frame fromW2 = new Frame(new InaPacket(h, FlatBitmap.of(3, 1), values.payload(1, 2)), "w3", 100);
        EndpointDriver.Out out = w3.onDeliver(fromW2, 0).get(0);
        assertEquals(7 * MS, out.wallDelayNanos());
        assertEquals(100 + 7 * MS, out.frame().vt(), "modelled time carries the delay too");
        assertEquals(FlatBitmap.of(3, 1, 2), out.frame().packet().endpoints());
    }

    @Test
    void aChunkThatComesBackHoldingThisWorkersOwnContributionIsAnError() {
        RingWorker w1 = new RingWorker(plan(Map.of(), Set.of()), "w1");
        w1.start(0);
        InaHeader h = InaHeader.of(PacketType.UNICAST, 1, 1_000_001, 1).withOp(ReductionOp.SUM);
        assertTrue(w1.onDeliver(new Frame(new InaPacket(h, FlatBitmap.of(3, 0, 2), values.payload(0, 1)), "w1", 0), 0)
                .isEmpty());
        assertEquals(
                List.of("chunk 1 came back round the ring holding [101]"),
                w1.report().mismatches());
        assertFalse(
                w1.accepts(new InaPacket(h.withType(PacketType.CONTRIBUTION), FlatBitmap.of(3, 1), Payload.EMPTY)),
                "a ring worker takes unicasts only");
    }

    @Test
    void aRingOfOneHasItsOwnDataAsTheResult() {
        BitSpace one = new BitSpace(List.of("w1"));
        RingWorker w1 = new RingWorker(
                new AllReducePlan(
                        "j", "ring", 1, 1, one, List.of("w1"), data, Map.of(), null, MS, Map.of(), Set.of(), 3),
                "w1");
        assertTrue(w1.start(0).isEmpty(), "nothing to send");
        assertTrue(w1.done());
        assertEquals(data.chunks(), w1.report().verifiedChunks());
    }
}
