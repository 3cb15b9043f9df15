package org.bitina.topology;

import java.time.Duration;
import java.util.List;

/** What every job has, whatever its kind. */
public record JobCommon(String name, JobKind kind, int tenant, int id, List<String> members, BitSpace bitSpace,
                        EncodingSpec encoding, Duration completionTimeout, List<String> baselines) {
}
