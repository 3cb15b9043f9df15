package org.bitina.node;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bitina credentials FILE}: makes a cluster's credentials once, for runs whose members
 * are started by hand or by a deploy script; every member is then given the same file.
 */
@Command(
        name = "credentials",
        mixinStandardHelpOptions = true,
        description =
                "Writes new cluster credentials (a key and a self-signed certificate, PKCS12, mode 0600) to FILE.")
final class CredentialsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE", description = "where to write them (must not exist)")
    Path file;

    @Option(
            names = "--days",
            defaultValue = "7",
            description = "how long the certificate is valid (default ${DEFAULT-VALUE})")
    int days;

    @Override
    public Integer call() throws IOException {
        if (days < 1 || days > 366) {
            System.err.println("bitina credentials: --days must be from 1 to 366, got " + days);
            return ExitCodes.USAGE;
        }
        try {
            RunCredentials.create(file, Duration.ofDays(days));
        } catch (FileAlreadyExistsException e) {
            System.err.println("bitina credentials: " + file
                    + " exists; remove it first (members holding it would be locked out)");
            return ExitCodes.USAGE;
        }
        System.out.println("credentials: " + file + " (valid " + days + (days == 1 ? " day" : " days")
                + "); give every member this file: --credentials " + file + " or BITINA_CREDENTIALS=" + file);
        return ExitCodes.OK;
    }
}
