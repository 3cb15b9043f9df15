package org.bitina.usecase.reducescatter;

import org.bitina.job.JobCommon;
import org.bitina.usecase.reduction.ArrayPhases;
import org.bitina.usecase.reduction.DataSpec;

/**
 * A reduce-scatter job (C1): every member contributes its whole array; chunk {@code c} of the sum
 * belongs to member {@code c mod N} (its shard, 1/N of the array), and only that member ends with it.
 *
 * @param root the root of the aggregation tree built for the members (a switch, or a host that is no member)
 */
public record ReduceScatterSpec(JobCommon common, String root, DataSpec data) implements ArrayPhases.JobSpecWithData {}
