package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bitina.bitmap.EndpointSets;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.topology.Topology;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * S1 under concurrency (T1): two tenants' jobs on one switch at the same moment, with the same bit
 * positions and the same chunk numbers, interleaved contribution by contribution: each aggregation
 * completes with its own tenant's sum only, and a frame of one tenant naming the other's job id is
 * dropped, counted.
 */
class ConcurrentTenantsTest {
    private static final long MS = 1_000_000L;
    private final Topology fig1 = Topologies.paperFig1(LinkSpec.DEFAULT);
    private final Routing routing = Routing.compute(fig1);
    private final BitSpace hosts =
            new BitSpace(fig1.hosts().stream().map(Node::name).toList());

    private NodeEngine s7WithTwoTenants() {
        NodeEngine s7 = new NodeEngine("s7", routing, new AggregationTable(16, 500 * MS), false);
        // the same A-BM, the same parent, the same bit space: only tenant and job tell them apart
        for (int[] tj : new int[][] {{1, 1}, {2, 2}}) {
            s7.install(JobTables.builder("t" + tj[0], tj[0], tj[1], 8, 50 * MS)
                    .bift(Bift.build(routing, "s7", hosts))
                    .vatNode(EndpointSets.parse("[00110000]"), "s6")
                    .build());
        }
        return s7;
    }

    private static Frame contribution(int tenant, int job, int chunk, String pbm, float value) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, tenant, job, chunk).withOp(ReductionOp.SUM);
        return new Frame(new InaPacket(h, EndpointSets.parse(pbm), Payload.of(new float[] {value})), "s5", 100);
    }

    private static List<InaPacket> sent(List<NodeEngine.Action> actions) {
        List<InaPacket> out = new ArrayList<>();
        actions.forEach(a -> {
            if (a instanceof NodeEngine.Send s) {
                out.add(s.frame().packet());
            }
        });
        return out;
    }

    @Test
    void twoTenantsSameBitsSameChunksInterleavedEachSumsOnlyItsOwn() {
        NodeEngine s7 = s7WithTwoTenants();
        List<InaPacket> up = new ArrayList<>();
        for (int chunk = 0; chunk < 4; chunk++) {
            // tenant 1 sends 1 and 2, tenant 2 sends 10 and 20: a merged entry would complete early with 11 or 21
            up.addAll(sent(s7.onFrame(contribution(1, 1, chunk, "[00100000]", 1f), 0)));
            up.addAll(sent(s7.onFrame(contribution(2, 2, chunk, "[00100000]", 10f), 0)));
            up.addAll(sent(s7.onFrame(contribution(1, 1, chunk, "[00010000]", 2f), 0)));
            up.addAll(sent(s7.onFrame(contribution(2, 2, chunk, "[00010000]", 20f), 0)));
        }
        assertEquals(8, up.size(), "one result per tenant and chunk: " + up);
        for (InaPacket p : up) {
            float expected = p.header().tenant() == 1 ? 3f : 30f;
            assertEquals(p.header().tenant(), p.header().job(), "a result keeps its own tenant and job");
            assertEquals(EndpointSets.parse("[00110000]"), p.endpoints());
            assertArrayEquals(new float[] {expected}, ((Payload.Float32) p.payload()).values(), p.toString());
        }
        assertEquals(4, up.stream().filter(p -> p.header().tenant() == 1).count());
    }

    @Test
    void aFrameOfOneTenantNamingTheOthersJobIdIsDroppedAndCounted() {
        NodeEngine s7 = s7WithTwoTenants();
        s7.onFrame(contribution(1, 1, 0, "[00100000]", 1f), 0);
        // tenant 2 naming tenant 1's job id 1, which tenant 2 does not have
        List<NodeEngine.Action> out = s7.onFrame(contribution(2, 1, 0, "[00010000]", 100f), 0);
        assertTrue(sent(out).isEmpty(), "nothing goes on: " + out);
        assertEquals(1, s7.unknownJobDrops());
        // tenant 1's aggregation is untouched: its own second contribution completes it with its own sum
        List<InaPacket> up = sent(s7.onFrame(contribution(1, 1, 0, "[00010000]", 2f), 0));
        assertEquals(1, up.size());
        assertArrayEquals(new float[] {3f}, ((Payload.Float32) up.get(0).payload()).values());
    }
}
