package org.bitina.node;

import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code bitina} command line; a bare {@code bitina} lists its commands. */
@Command(
        name = "bitina",
        mixinStandardHelpOptions = true,
        version = "bitina 0.1.0",
        description = "Emulates in-network aggregation and multicast over bitmaps on Pekko actors.",
        subcommands = {
            ValidateCommand.class,
            RunCommand.class,
            SweepCommand.class,
            ExportCommand.class,
            CompareCommand.class,
            WorkloadCommand.class,
            NodeCommand.class,
            CredentialsCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // SLF4J binds on first use; when that is a Pekko thread racing the main one, it prints a
        // "calls intercepted and replayed" warning on every run: bind it here, on one thread, first
        LoggerFactory.getILoggerFactory();
        System.exit(execute(args));
    }

    /** Runs the CLI and returns its exit code (tests call this instead of {@link #main}). */
    public static int execute(String... args) {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler(Main::internalError)
                .execute(args);
    }

    /**
     * What no check before the run foresaw: one line, not a page of stack (bad input is refused
     * before anything runs, with its own message); BITINA_DEBUG=1 prints the stack too.
     */
    private static int internalError(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        cmd.getErr()
                .println("bitina " + cmd.getCommandName() + ": internal error: " + e
                        + (System.getenv("BITINA_DEBUG") == null ? " (BITINA_DEBUG=1 for the stack trace)" : ""));
        if (System.getenv("BITINA_DEBUG") != null) {
            e.printStackTrace(cmd.getErr());
        }
        return ExitCodes.JOB_FAILED;
    }

    /** A bare {@code bitina}: every command named (picocli adds the usage), and the exit status of a usage error. */
    @Override
    public void run() {
        CommandLine cmd = spec.commandLine();
        throw new CommandLine.ParameterException(
                cmd, "name a command: " + String.join(", ", cmd.getSubcommands().keySet()));
    }
}
