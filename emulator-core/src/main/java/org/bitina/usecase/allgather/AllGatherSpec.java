package org.bitina.usecase.allgather;

import org.bitina.job.JobCommon;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;

/**
 * An all-gather job (C2): chunk {@code c} of the array is member {@code c mod N}'s shard, its own
 * seeded values; every member ends with every shard. Nothing is reduced ({@code data.op} is not a key).
 */
public record AllGatherSpec(JobCommon common, DataSpec data) implements ArrayPhases.JobSpecWithData {}
