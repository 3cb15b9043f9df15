package org.bitina.bench;

import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The benchmarks' command lines, parsed by picocli: an unknown option, a missing value or a
 * number that is not one is refused with the usage (exit 2) instead of being passed over, as
 * {@code --repaet 2} once was.
 */
final class BenchArgs {
    private BenchArgs() {}

    /**
     * Binds SLF4J on the main thread before any actor system starts: bound first by a Pekko thread
     * racing the main one, it prints a "calls intercepted and replayed" warning (as the CLI's Main does).
     */
    static void bindLogging() {
        LoggerFactory.getILoggerFactory();
    }

    /** {@code options} (a picocli {@code @Command}) filled from {@code args}; on a bad line, the usage and exit 2. */
    static <T> T parse(T options, String[] args) {
        CommandLine cl = new CommandLine(options);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println(e.getMessage());
            cl.usage(System.err);
            System.exit(2);
        }
        if (cl.isUsageHelpRequested()) {
            cl.usage(System.out);
            System.exit(0);
        }
        return options;
    }
}
