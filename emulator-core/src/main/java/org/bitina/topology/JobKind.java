package org.bitina.topology;

/** The use cases of the seeds, as named in scenario files and reports. */
public enum JobKind {
    ALLREDUCE("allreduce"),
    MOE("moe"),
    RELIABLE_MULTICAST("reliable-multicast"),
    BIER_INC("bier-inc");

    private final String configName;

    JobKind(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static JobKind fromConfig(String name) {
        for (JobKind k : values()) {
            if (k.configName.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown job kind '" + name + "' (expected one of allreduce, moe, reliable-multicast, bier-inc)");
    }
}
