package org.bitina.usecase.allreduce;

import org.bitina.usecase.JobCommon;

/** AllReduce (seed 000 section 3): members are the workers. */
public record AllReduceSpec(JobCommon common, TreeSpec tree, DataSpec data, Elastic elastic) implements AllReduceUseCase.JobSpecWithData {
    public AllReduceSpec(JobCommon common, TreeSpec tree, DataSpec data) {
        this(common, tree, data, Elastic.ONCE);
    }
}
