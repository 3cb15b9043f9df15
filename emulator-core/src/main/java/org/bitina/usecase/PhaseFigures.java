package org.bitina.usecase;

import java.util.Map;

/**
 * What one phase's endpoints and devices added up to, kind-blind: the input from which a use case
 * builds its {@link KindReport} ({@link UseCase#report}).
 *
 * @param endpointStats     the counters the phase's endpoints reported ({@link DriverReport#stats()}), summed
 * @param sourceUplinkBytes bytes on the links of the phase's sources ({@link Phase#uplinks()})
 * @param incTreeEntries    BIER-INC tree branches (B2) the switches held at the end of the phase, summed
 * @param modeledMicros     the phase in modelled time
 */
public record PhaseFigures(
        Map<String, Long> endpointStats, long sourceUplinkBytes, long incTreeEntries, double modeledMicros) {
    public long stat(String key) {
        return endpointStats.getOrDefault(key, 0L);
    }
}
