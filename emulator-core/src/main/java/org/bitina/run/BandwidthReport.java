package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.bitina.usecase.UseCase;

/**
 * A row in nccl-tests' terms, flat in the row's JSON: each absent for a job that reduces no array
 * ({@link UseCase#bandwidth}), algbw and busbw also for a phase that took no modelled time.
 *
 * @param dataBytes the array's bytes per rank
 * @param algbwGBps those bytes over the modelled time, GB/s
 * @param busFactor the mode's own bus factor (the most payload one host sends or receives per byte of the array)
 * @param busbwGBps algbw times the bus factor
 */
public record BandwidthReport(
        @JsonInclude(JsonInclude.Include.NON_NULL) Long dataBytes,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double algbwGBps,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double busFactor,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double busbwGBps) {

    public static final BandwidthReport NONE = new BandwidthReport(null, null, null, null);

    /** The terms of {@code bw} (null: none) over a phase of {@code modeledMicros}. */
    static BandwidthReport of(UseCase.Bandwidth bw, double modeledMicros) {
        if (bw == null) {
            return NONE;
        }
        long bytes = bw.arrayBytes();
        Double algbw = modeledMicros <= 0 ? null : bytes / (modeledMicros * 1e-6) / 1e9;
        Double factor = Double.isNaN(bw.busFactor()) ? null : bw.busFactor();
        Double busbw = algbw == null || factor == null ? null : algbw * factor;
        return new BandwidthReport(bytes, algbw, factor, busbw);
    }
}
