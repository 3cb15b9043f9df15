package org.bitina.bench;

import java.util.concurrent.TimeUnit;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.StateKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Aggregation steps per second: a node with {@code fanIn} children reduces one 256-element
 * float32 chunk per child and completes; each operation is one offered contribution.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
public class AggregationBench {
    @Param({"2", "8", "32"})
    public int fanIn;

    private final AggregationTable table = new AggregationTable(1 << 16, 0);
    private AggregationFixture f;
    private long seq;
    private long now;

    @Setup
    public void setup() {
        f = new AggregationFixture(fanIn, 256);
    }

    @Benchmark
    @OperationsPerInvocation(32)
    public Object aggregationStep() {
        Object last = null;
        // 32 offers per invocation, completing an aggregation every fanIn offers
        for (int op = 0; op < 32; op++) {
            int child = (int) (seq % fanIn);
            StateKey key = new StateKey(1, 1, 0, seq / fanIn);
            last = table.offer(key, f.nodeBitmap, f.contributions[child], 1_000_000, now++);
            seq++;
            if (child == fanIn - 1 && (seq & 1023) == 0) {
                table.expire(now); // forget tombstones, as the actor's timer does
            }
        }
        return last;
    }
}
