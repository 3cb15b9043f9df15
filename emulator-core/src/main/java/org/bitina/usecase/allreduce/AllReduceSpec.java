package org.bitina.usecase.allreduce;

import org.bitina.usecase.JobCommon;

/**
 * AllReduce (seed 000 section 3): members are the workers; {@code elastic}: A8 iterations; {@code values}: S6 masking and
 * checksum; {@code partitions}: H2 parallel trees over partitions with a second stage (or {@link Partitions#NONE}).
 */
public record AllReduceSpec(
        JobCommon common, TreeSpec tree, DataSpec data, Elastic elastic, ValueSecurity values, Partitions partitions)
        implements AllReduceUseCase.JobSpecWithData {
    public AllReduceSpec(JobCommon common, TreeSpec tree, DataSpec data) {
        this(common, tree, data, Elastic.ONCE, ValueSecurity.OFF);
    }

    public AllReduceSpec(JobCommon common, TreeSpec tree, DataSpec data, Elastic elastic, ValueSecurity values) {
        this(common, tree, data, elastic, values, Partitions.NONE);
    }

    @Override
    public boolean valueChecksum() {
        return values.checksum();
    }
}
