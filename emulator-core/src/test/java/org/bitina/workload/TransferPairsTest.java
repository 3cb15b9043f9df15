package org.bitina.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TransferPairsTest {
    private static Step compute(int id, int rank, long nanos, Integer... deps) {
        return new Step(id, "c" + id, new Step.Compute(rank, nanos), List.of(deps), List.of());
    }

    private static Step send(int id, int rank, int to, long bytes, int tag, Integer... deps) {
        return new Step(
                id, "send" + id, new Step.Transfer(StepType.SEND, rank, to, bytes, tag), List.of(deps), List.of());
    }

    private static Step recv(int id, int rank, int from, long bytes, int tag, Integer... deps) {
        return new Step(
                id, "recv" + id, new Step.Transfer(StepType.RECV, rank, from, bytes, tag), List.of(deps), List.of());
    }

    @Test
    void aSendAndItsRecvBecomeOneStepRootedAtTheSenderThatTheRecvsDependentsWaitFor() {
        StepGraph g = new StepGraph(
                2, List.of(compute(1, 0, 10), send(2, 0, 1, 4096, 3, 1), recv(3, 1, 0, 4096, 3), compute(4, 1, 20, 3)));
        StepGraph m = TransferPairs.merge(g);
        assertEquals(3, m.steps().size());
        Step pair = m.step(2);
        Step.Collective c = (Step.Collective) pair.op();
        assertEquals(StepType.SEND_RECV, c.type());
        assertEquals(List.of(0, 1), c.group().ranks());
        assertEquals(0, c.root(), "rooted at the sender");
        assertEquals(4096, c.bytes());
        assertEquals(List.of(1), pair.dataDeps(), "the send's dependencies");
        assertEquals(List.of(2), m.step(4).dataDeps(), "the recv's dependent waits for the pair");
    }

    @Test
    void sendsOnOneChannelPairWithRecvsInTraceOrderAndTagsKeepChannelsApart() {
        StepGraph g = new StepGraph(
                2,
                List.of(
                        send(1, 1, 0, 100, 0),
                        send(2, 1, 0, 200, 0),
                        send(3, 1, 0, 300, 9),
                        recv(10, 0, 1, 300, 9),
                        recv(11, 0, 1, 100, 0),
                        recv(12, 0, 1, 200, 0),
                        compute(13, 0, 1, 12)));
        StepGraph m = TransferPairs.merge(g);
        assertEquals(300, ((Step.Collective) m.step(3).op()).bytes());
        assertEquals(1, ((Step.Collective) m.step(1).op()).root());
        assertEquals(List.of(2), m.step(13).dataDeps(), "the second recv on tag 0 is the second send's");
    }

    @Test
    void aGraphWithoutTransfersIsReturnedAsItIs() {
        StepGraph g = new StepGraph(1, List.of(compute(1, 0, 10)));
        assertSame(g, TransferPairs.merge(g));
    }

    @Test
    void anUnmatchedSendOrRecvAndDifferingSizesAreRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferPairs.merge(new StepGraph(2, List.of(send(1, 0, 1, 8, 0)))));
        assertTrue(e.getMessage().contains("has no matching RECV on rank 1"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferPairs.merge(new StepGraph(2, List.of(recv(1, 0, 1, 8, 0)))));
        assertTrue(e.getMessage().contains("has no matching SEND on rank 1"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferPairs.merge(new StepGraph(2, List.of(send(1, 0, 1, 8, 0), recv(2, 1, 0, 16, 0)))));
        assertTrue(e.getMessage().contains("sends 8 bytes"), e.getMessage());
    }

    @Test
    void twoRanksThatEachReceiveBeforeTheySendAreACycle() {
        // blocking receives first on both sides: no order runs them
        StepGraph g = new StepGraph(
                2, List.of(recv(1, 0, 1, 8, 0), send(2, 0, 1, 8, 0, 1), recv(3, 1, 0, 8, 0), send(4, 1, 0, 8, 0, 3)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TransferPairs.merge(g));
        assertTrue(e.getMessage().contains("cycle"), e.getMessage());
    }
}
