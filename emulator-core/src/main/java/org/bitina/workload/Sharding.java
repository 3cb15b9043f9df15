package org.bitina.workload;

/**
 * How data parallelism keeps the parameters: {@code NONE} replicates them and AllReduces the
 * gradients in buckets (PyTorch DDP); {@code FSDP} shards them, AllGathers a block's parameters
 * before its forward and its backward and ReduceScatters its gradients after its backward
 * (PyTorch FSDP / ZeRO-3 with resharding after forward).
 */
public enum Sharding {
    NONE,
    FSDP;

    public String configName() {
        return name().toLowerCase();
    }
}
