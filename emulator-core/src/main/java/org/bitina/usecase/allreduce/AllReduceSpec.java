package org.bitina.usecase.allreduce;

import org.bitina.job.JobCommon;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;
import org.bitina.usecase.reduction.Elastic;
import org.bitina.usecase.reduction.ValueSecurity;

/**
 * AllReduce (seed 000 section 3): members are the workers; {@code elastic}: A8 iterations; {@code values}: S6 masking and
 * checksum; {@code partitions}: H2 parallel trees over partitions with a second stage (or {@link Partitions#NONE}).
 */
public record AllReduceSpec(
        JobCommon common, TreeSpec tree, DataSpec data, Elastic elastic, ValueSecurity values, Partitions partitions)
        implements ArrayPhases.JobSpecWithData {
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
