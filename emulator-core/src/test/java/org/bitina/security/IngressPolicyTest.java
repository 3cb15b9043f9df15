package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.NodeEngine;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * S1 and S4 at a switch port, on the seed's Fig. 1 (all eight servers hold bits, w1..w4 take
 * part, s6 is the VAT root): the attacks of the security issue, each a counted drop with its
 * reason, and the honest packets still through.
 */
class IngressPolicyTest {
    private static final long MS = 1_000_000L;
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(fig1);
    private final BitSpace hosts = new BitSpace(List.of("w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"));
    private final IngressPolicy policy = new IngressPolicy(FlatBitmap.of(8, 0, 1, 2, 3), List.of("s6"), 16);

    /** s1 as the VAT node of w1 and w2, with the job's ingress policy (or none). */
    private NodeEngine s1(IngressPolicy p) {
        NodeEngine s1 = new NodeEngine("s1", routing, new AggregationTable(16, 500 * MS), false);
        s1.install(JobTables.builder("j", 1, 1, 8, 50 * MS)
                .bift(Bift.build(routing, "s1", hosts))
                .vatNode(EndpointSets.parse("[11000000]"), "s6")
                .ingress(p)
                .build());
        return s1;
    }

    private static Frame contribution(String bits) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM);
        return new Frame(new InaPacket(h, EndpointSets.parse(bits), Payload.of(new float[] {1f})), "s6", 0);
    }

    private static Frame result(String bits) {
        InaHeader h = InaHeader.of(PacketType.RESULT, 1, 1, 0).withOp(ReductionOp.SUM);
        return new Frame(new InaPacket(h, EndpointSets.parse(bits), Payload.of(new float[] {1f})), null, 0);
    }

    @Test
    void aWorkerSpeakingForAnotherIsDroppedAndTheHonestOneStillCounts() {
        NodeEngine s1 = s1(policy);
        s1.onFrame(contribution("[11000000]"), "w1", 0);
        assertEquals(
                Map.of("spoofed bits: host wN set bits of endpoints that are not on it", 1L), s1.dropsByReason(1, 1));
        assertEquals(0, s1.counters(1, 1).get(Counter.COMPLETIONS), "s1 did not complete on w1's word alone");
        s1.onFrame(contribution("[10000000]"), "w1", 0);
        s1.onFrame(contribution("[01000000]"), "w2", 0);
        assertEquals(1, s1.counters(1, 1).get(Counter.COMPLETIONS), "w1 and w2, each for itself, complete s1");
    }

    @Test
    void withoutThePolicyTheSpoofWorks() {
        // the attack the policy stops: w1 alone completes s1, and w2's honest packet is a duplicate
        NodeEngine s1 = s1(null);
        s1.onFrame(contribution("[11000000]"), "w1", 0);
        assertEquals(1, s1.counters(1, 1).get(Counter.COMPLETIONS));
    }

    @Test
    void aResultFromAWorkerWithEveryBitSetIsNeitherTakenNorReplicated() {
        NodeEngine s1 = s1(policy);
        List<NodeEngine.Action> out = s1.onFrame(result("[11111111]"), "w1", 0);
        assertTrue(out.stream().noneMatch(a -> a instanceof NodeEngine.Send), "no amplification: " + out);
        assertEquals(Map.of("bits of endpoints that are not the job's members", 1L), s1.dropsByReason(1, 1));
        List<NodeEngine.Action> members = s1.onFrame(result("[11000000]"), "w1", 0);
        assertTrue(
                members.stream().noneMatch(a -> a instanceof NodeEngine.Send),
                "members' bits only, but from a member port");
        assertEquals(1L, s1.dropsByReason(1, 1).get("a result from host wN, which is not the job's sender"));
    }

    @Test
    void theRootsResultFromTheSwitchAboveIsReplicatedToTheMembersBelow() {
        NodeEngine s1 = s1(policy);
        List<NodeEngine.Action> out = s1.onFrame(result("[11000000]"), "s5", 0);
        assertEquals(2, out.stream().filter(a -> a instanceof NodeEngine.Send).count(), "to w1 and w2: " + out);
        assertEquals(Map.of(), s1.dropsByReason(1, 1));
    }

    @Test
    void aNonMemberHostMayNotSetAMembersBit() {
        // w5..w8 hold bits in this space but are not members; w2's bit from s3's port is spoofed too
        NodeEngine s3 = new NodeEngine("s3", routing, new AggregationTable(16, 500 * MS), false);
        s3.install(JobTables.builder("j", 1, 1, 8, 50 * MS)
                .bift(Bift.build(routing, "s3", hosts))
                .ingress(policy)
                .build());
        s3.onFrame(contribution("[01000000]"), "w5", 0);
        s3.onFrame(contribution("[00001000]"), "w5", 0);
        assertEquals(
                Map.of(
                        "spoofed bits: host wN set bits of endpoints that are not on it",
                        1L,
                        "bits of endpoints that are not the job's members",
                        1L),
                s3.dropsByReason(1, 1));
    }

    @Test
    void aReplayedContributionIsDroppedAtAnyAgeButARetransmissionIsNot() {
        NodeEngine s1 = s1(policy);
        s1.onFrame(contribution("[10000000]"), "w1", 0);
        s1.onFrame(contribution("[01000000]"), "w2", 0);
        assertEquals(1, s1.counters(1, 1).get(Counter.COMPLETIONS));
        // an hour later the tombstones are long gone: the window still knows chunk 0 from w1
        s1.onTimer(3_600_000 * MS);
        s1.onFrame(contribution("[10000000]"), "w1", 3_600_000 * MS);
        assertEquals(Map.of("replay", 1L), s1.dropsByReason(1, 1));
        assertEquals(1, s1.counters(1, 1).get(Counter.COMPLETIONS), "not aggregated again");
        InaHeader again = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0)
                .withOp(ReductionOp.SUM)
                .withFlags(Flags.RETRANSMIT);
        s1.onFrame(
                new Frame(
                        new InaPacket(again, EndpointSets.parse("[10000000]"), Payload.of(new float[] {1f})), "s6", 0),
                "w1",
                3_600_000 * MS);
        assertEquals(1L, s1.dropsByReason(1, 1).get("replay"), "a retransmission is not a replay");
    }
}
