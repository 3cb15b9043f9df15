package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/**
 * B5's flush under the virtual clock: the reductions a routing change makes stale leave one
 * port at one modelled instant, so the order they leave in is the order they queue in. It must
 * not be the hash map's: a {@link StateKey} hashes its tree enum by identity, which differs from
 * JVM to JVM (fat-tree-k8-bier-inc-link-failure.conf gave chunk times 64 ns apart and queue
 * depths one packet apart from run to run).
 */
class RerouteFlushOrderTest {
    private static final long MS = 1_000_000L;

    @Test
    void staleIncReductionsLeaveInTheOrderTheyOpened() {
        AggregationTable table = new AggregationTable(1_000, 500 * MS);
        EndpointSet registered = EndpointSets.parse("[1100]");
        List<Long> opened = new ArrayList<>(LongStream.range(0, 200).boxed().toList());
        Collections.shuffle(opened, new Random(25));
        long vt = 0;
        for (long seq : opened) {
            StateKey key = new StateKey(1, 1, StateKey.Tree.INC, 7L << 32, seq);
            Contribution half =
                    new Contribution(EndpointSets.parse("[1000]"), ReductionOp.SUM, Payload.of(new float[] {1f}));
            assertInstanceOf(AggregationTable.Buffered.class, table.offer(key, registered, half, 50 * MS, vt++));
        }

        List<Long> left = table.flush(k -> k.tree() == StateKey.Tree.INC, vt).stream()
                .map(e -> e.key().seq())
                .toList();

        assertEquals(opened, left, "flushed in the order the reductions opened");
    }
}
