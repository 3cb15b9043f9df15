package org.bitina.node;

/** Exit statuses of the CLI (README, "Exit status"). */
public final class ExitCodes {
    private ExitCodes() {}

    /** Every job ended as the scenario expects. */
    public static final int OK = 0;
    /** A job ended otherwise: partial, failed, or unverified. */
    public static final int JOB_FAILED = 1;
    /** The scenario file is invalid; nothing ran. */
    public static final int INVALID_SCENARIO = 2;
    /** The command line is wrong (as for an invalid scenario, nothing ran). */
    public static final int USAGE = 2;
    /** The scenario asks for something this version cannot run. */
    public static final int UNSUPPORTED = 3;
}
