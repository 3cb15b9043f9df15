package org.bitina.node;

import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code bitina} command line: {@code run}, {@code validate}, {@code node}, {@code credentials}. */
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
        return new CommandLine(new Main()).execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "name a command: run, validate, node or credentials");
    }
}
