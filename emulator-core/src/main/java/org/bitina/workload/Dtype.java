package org.bitina.workload;

import java.util.Arrays;
import java.util.List;

/** The element type of activations and gradients, and so the bytes each element takes. */
public enum Dtype {
    FP8("fp8", 1),
    BF16("bf16", 2),
    FP16("fp16", 2),
    FP32("fp32", 4);

    private final String configName;
    private final int bytes;

    Dtype(String configName, int bytes) {
        this.configName = configName;
        this.bytes = bytes;
    }

    public String configName() {
        return configName;
    }

    public int bytes() {
        return bytes;
    }

    public static List<String> configNames() {
        return Arrays.stream(values()).map(Dtype::configName).toList();
    }

    /** The dtype called {@code name} in a scenario file; fails on any other name. */
    public static Dtype of(String name) {
        for (Dtype d : values()) {
            if (d.configName.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "' (known: " + configNames() + ")");
    }
}
