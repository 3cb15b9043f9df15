package org.bitina.bench;

import java.util.concurrent.TimeUnit;
import org.bitina.security.AdditiveMask;
import org.bitina.security.LinearChecksum;
import org.bitina.security.ValueKeys;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What S6 costs per chunk of 992 int32 words (fat-tree-k8-allreduce's chunk, int32): a worker's
 * contribution (checksum appended, mask of two ring edges added), one check of the checksum
 * invariant (a worker's result, and each audit tap per packet and hop), and, for scale, the
 * reduction step a switch does per contribution (adding one chunk into its buffer).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
public class ValueSecurityBench {
    private static final int N = 992;
    private final byte[] secret = ValueKeys.endpointSecret(new byte[32], 1, 1);
    private final LinearChecksum checksum = new LinearChecksum(ValueKeys.checksumKey(secret));
    private final AdditiveMask mask = new AdditiveMask(ValueKeys.maskKey(secret), 128);
    private int[] x;
    private int[] sum;
    private long chunk;

    @Setup
    public void setup() {
        x = new int[N];
        for (int i = 0; i < N; i++) {
            x[i] = i * 31 - 500;
        }
        sum = checksum.append(0, x);
    }

    /** A worker's contribution: append the checksum, add its mask (a new chunk each time: no coefficient reuse). */
    @Benchmark
    public int[] contribution() {
        long c = chunk++;
        int[] v = checksum.append(c, x);
        mask.mask(c, 5, v, N, checksum);
        return v;
    }

    /** One invariant check of a packet (a new chunk each time). */
    @Benchmark
    public boolean check() {
        return checksum.holds(chunk++, sum);
    }

    /** The switch's own work per contribution, for scale: one chunk added into a buffer. */
    @Benchmark
    public int[] reductionStep() {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += x[i % N];
        }
        return sum;
    }
}
