package org.bitina.workload.chakra;

/**
 * The attribute names and enum numbers Chakra's converters and ASTRA-sim's feeder use on nodes
 * ({@code src/converter/pytorch_converter.py}, {@code src/feeder/et_feeder_node.cpp}), and the
 * one bitina adds.
 */
final class ChakraAttributes {
    private ChakraAttributes() {}

    static final String COMM_TYPE = "comm_type";
    static final String COMM_SIZE = "comm_size";
    static final String COMM_SRC = "comm_src";
    static final String COMM_DST = "comm_dst";
    static final String COMM_TAG = "comm_tag";
    static final String PG_NAME = "pg_name";
    /**
     * bitina's own: the modelled duration in nanoseconds, so that its traces round-trip exactly;
     * {@code duration_micros} is written too, and is what a trace without this attribute gives.
     */
    static final String DURATION_NANOS = "bitina_duration_nanos";

    /** The group of a collective that names none: every rank of the trace. */
    static final String WORLD = "world";
}
