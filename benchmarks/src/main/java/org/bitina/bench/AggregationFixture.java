package org.bitina.bench;

import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.protocol.Contribution;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/** One node with {@code fanIn} children, each offering {@code elements} float32: what the aggregation benchmarks reduce. */
final class AggregationFixture {
    static final int CAPACITY = 128;

    final EndpointSet nodeBitmap;
    final float[][] arrays;
    final Contribution[] contributions;

    AggregationFixture(int fanIn, int elements) {
        int[] all = new int[fanIn];
        contributions = new Contribution[fanIn];
        arrays = new float[fanIn][elements];
        for (int i = 0; i < fanIn; i++) {
            all[i] = i;
            for (int e = 0; e < elements; e++) {
                arrays[i][e] = (i * 31 + e) * 0.001f;
            }
            contributions[i] = new Contribution(FlatBitmap.of(CAPACITY, i), ReductionOp.SUM, Payload.of(arrays[i]));
        }
        nodeBitmap = FlatBitmap.of(CAPACITY, all);
    }
}
