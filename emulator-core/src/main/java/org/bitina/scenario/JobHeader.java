package org.bitina.scenario;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.usecase.JobCommon;

/** The keys every job has, whatever its kind: name, kind, tenant, id, completion timeout and baselines. */
public record JobHeader(String name, int tenant, int id, Duration completionTimeout, List<String> baselines) {
    public static final Set<String> KEYS = Set.of("name", "kind", "tenant", "id", "completion-timeout", "baselines");
    private static final Duration DEFAULT_COMPLETION_TIMEOUT = Duration.ofMillis(50);

    /** The keys of a kind: these and the kind's {@code own}. */
    public static Set<String> keysAnd(String... own) {
        Set<String> all = new HashSet<>(KEYS);
        all.addAll(List.of(own));
        return Set.copyOf(all);
    }

    /**
     * The header of {@code c}, or null when a value is missing or bad (recorded).
     *
     * @param allowedBaselines the baselines this kind can be compared with, in the order to list them
     */
    public static JobHeader read(ConfigReader c, int index, String kind, List<String> allowedBaselines) {
        int before = c.problems().count();
        String name = c.requiredName("name", "a job's name");
        int tenant = c.intIn("tenant", 0, 0xFFFF, 0);
        int id = c.intIn("id", 1, Integer.MAX_VALUE, index + 1);
        Duration timeout = c.positiveDuration("completion-timeout", DEFAULT_COMPLETION_TIMEOUT);
        List<String> baselines = c.has("baselines") ? c.names("baselines") : List.of();
        if (baselines != null) {
            for (String b : baselines) {
                if (!allowedBaselines.contains(b)) {
                    c.problem("baselines", "unknown baseline '" + b + "' for a " + kind + " job (expected "
                            + String.join(" or ", allowedBaselines) + ")");
                }
            }
        }
        return c.problems().since(before) ? null : new JobHeader(name, tenant, id, timeout, baselines);
    }

    public JobCommon common(String kind, List<String> members, BitSpace space, EncodingSpec encoding) {
        return new JobCommon(name, kind, tenant, id, members, space, encoding, completionTimeout, baselines);
    }
}
