package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/** Whatever the order and however many copies arrive, an aggregation completes once, exactly. */
class AggregationProperties {

    @Property(tries = 300)
    void anyOrderWithDuplicatesCompletesOnceWithTheExactSum(
            @ForAll @IntRange(min = 1, max = 40) int leaves,
            @ForAll @IntRange(min = 0, max = 3) int copies,
            @ForAll long seed) {
        Random rnd = new Random(seed);
        Encoding enc = Encoding.values()[rnd.nextInt(3)];
        EndpointSet node = FlatBitmap.full(leaves).to(enc, 1 + rnd.nextInt(8));
        List<Integer> arrivals = new ArrayList<>();
        for (int i = 0; i < leaves; i++) {
            for (int c = 0; c <= copies; c++) {
                arrivals.add(i);
            }
        }
        Collections.shuffle(arrivals, rnd);
        AggregationTable table = new AggregationTable(4, Long.MAX_VALUE / 4);
        StateKey key = new StateKey(0, 1, 0, 1);
        int completions = 0;
        int duplicates = 0;
        int[] result = null;
        for (int leaf : arrivals) {
            EndpointSet pbm = EndpointSets.of(enc, leaves, 4, leaf);
            var out = table.offer(
                    key, node, new Contribution(pbm, ReductionOp.SUM, Payload.of(new int[] {leaf + 1, 1})), 1_000, 0);
            if (out instanceof AggregationTable.Complete c) {
                completions++;
                assertEquals(node, c.emission().pbm());
                result = ((Payload.Int32) c.emission().payload()).values();
            } else if (out instanceof AggregationTable.Duplicate) {
                duplicates++;
            } else {
                assertTrue(out instanceof AggregationTable.Buffered, out.toString());
                assertEquals(0, completions, "nothing is buffered after completion");
            }
        }
        assertEquals(1, completions);
        assertEquals(leaves * copies, duplicates);
        assertArrayEquals(
                new int[] {leaves * (leaves + 1) / 2, leaves}, result, "every contribution counted exactly once");
    }

    @Property(tries = 200)
    void aPartialNamesExactlyTheMissingLeaves(@ForAll @IntRange(min = 2, max = 64) int leaves, @ForAll long seed) {
        Random rnd = new Random(seed);
        EndpointSet node = FlatBitmap.full(leaves);
        AggregationTable table = new AggregationTable(4, 0);
        StateKey key = new StateKey(0, 1, 0, 1);
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < leaves; i++) {
            if (rnd.nextInt(3) > 0 && sent.size() < leaves - 1) {
                sent.add(i);
                table.offer(
                        key,
                        node,
                        new Contribution(FlatBitmap.of(leaves, i), ReductionOp.SUM, Payload.of(new int[] {1})),
                        10,
                        0);
            }
        }
        List<Emission> out = table.expire(10);
        if (sent.isEmpty()) {
            assertTrue(out.isEmpty());
            return;
        }
        Emission e = out.get(0);
        assertEquals(
                FlatBitmap.of(leaves, sent.stream().mapToInt(Integer::intValue).toArray()), e.pbm());
        assertEquals(node.andNot(e.pbm()), e.missing());
        assertEquals(sent.size(), ((Payload.Int32) e.payload()).values()[0]);
    }
}
