package org.bitina.bench;

import java.util.concurrent.TimeUnit;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.StateKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P3 of issue 17: one aggregation (fan-in contributions of {@code elements} float32 reduced
 * into one result) through bitina's {@link AggregationTable}, against a plain
 * {@code acc[i] += x[i]} loop over the same arrays. Both score aggregations per second, so
 * their ratio is bitina's share of the arithmetic limit.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
public class AggregationLimitBench {
    @Param({"2", "8", "32"})
    public int fanIn;

    @Param({"256", "1024"})
    public int elements;

    private final AggregationTable table = new AggregationTable(1 << 16, 0);
    private AggregationFixture f;
    private long seq;
    private long now;

    @Setup
    public void setup() {
        f = new AggregationFixture(fanIn, elements);
    }

    /** One aggregation through the table: fanIn offers, the last completes it. */
    @Benchmark
    public Object bitina() {
        StateKey key = new StateKey(1, 1, 0, seq++);
        Object last = null;
        for (int child = 0; child < fanIn; child++) {
            last = table.offer(key, f.nodeBitmap, f.contributions[child], 1_000_000, now++);
        }
        if ((seq & 1023) == 0) {
            table.expire(now); // forget tombstones, as the actor's timer does
        }
        return last;
    }

    /** The same reduction as a plain loop: a copy of the first array, then acc[i] += x[i]. */
    @Benchmark
    public float[] plainLoop() {
        float[] acc = f.arrays[0].clone();
        for (int child = 1; child < fanIn; child++) {
            float[] x = f.arrays[child];
            for (int i = 0; i < acc.length; i++) {
                acc[i] += x[i];
            }
        }
        return acc;
    }
}
