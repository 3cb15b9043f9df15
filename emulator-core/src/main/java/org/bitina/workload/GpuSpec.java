package org.bitina.workload;

/** The compute model of one rank: it reaches {@code efficiency} of {@code tflops} on every layer. */
public record GpuSpec(double tflops, double efficiency) {
    /** Modelled time of {@code flops} floating-point operations, in nanoseconds (rounded to the nearest). */
    public long nanos(double flops) {
        return Math.round(flops / (tflops * 1e12 * efficiency) * 1e9);
    }
}
