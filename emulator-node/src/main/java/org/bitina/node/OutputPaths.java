package org.bitina.node;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a command will write, checked before anything runs: a run of minutes that ends in
 * "cannot write the report" has lost its result. Permission bits say little (root may write
 * anywhere, {@code /proc} looks writable, {@code /dev/full} is): each path is opened for
 * writing, and a file that did not exist is made and removed again.
 */
final class OutputPaths {
    private final Path scenario;
    private final Map<String, Path> outputs = new LinkedHashMap<>();

    private OutputPaths(Path scenario) {
        this.scenario = scenario;
    }

    /** Outputs of a command that reads {@code scenario}; none may be it. */
    static OutputPaths of(Path scenario) {
        return new OutputPaths(scenario);
    }

    /** Adds the file {@code path} that {@code option} names; a null path (the option not given) is skipped. */
    OutputPaths file(String option, Path path) {
        if (path != null) {
            outputs.put(option, path);
        }
        return this;
    }

    /** The first problem as one line ({@code bitina: --report /proc/x.json: cannot be created (...)}), or null. */
    String problem() {
        List<String> options = new ArrayList<>(outputs.keySet());
        for (int i = 0; i < options.size(); i++) {
            Path out = outputs.get(options.get(i));
            if (same(out, scenario)) {
                return line(options.get(i), out, "is the scenario file itself");
            }
            for (int j = 0; j < i; j++) {
                if (same(out, outputs.get(options.get(j)))) {
                    return line(options.get(i), out, "is also " + options.get(j) + "'s file");
                }
            }
            String why = unwritable(out);
            if (why != null) {
                return line(options.get(i), out, why);
            }
        }
        return null;
    }

    private static String line(String option, Path out, String why) {
        return "bitina: " + option + " " + out + ": " + why + "; nothing ran";
    }

    private static boolean same(Path a, Path b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
        } catch (IOException e) {
            // fall back to comparing the names
        }
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /**
     * Why {@code out} cannot be written, or null when it can. Its folder is made when only that
     * last folder is missing (its parent exists), as a user naming {@code runs/r.json} expects.
     * {@code /dev/null} is accepted (an output thrown away on purpose); another device, a FIFO or
     * a socket is not.
     */
    static String unwritable(Path out) {
        Path file = out.toAbsolutePath();
        Path dir = file.getParent();
        if (dir == null || Files.isDirectory(file)) {
            return "is a folder";
        }
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                return dir + " is not a folder";
            }
            if (dir.getParent() == null || !Files.isDirectory(dir.getParent())) {
                return "folder " + dir + " does not exist";
            }
            try {
                Files.createDirectory(dir);
            } catch (IOException e) {
                return "cannot make folder " + dir + " (" + reason(e) + ")";
            }
        }
        if (Files.exists(file)) {
            if (isDevNull(file)) {
                return null;
            }
            if (!Files.isRegularFile(file)) {
                return "is not a regular file (a device, FIFO or socket)";
            }
            // opened without truncating: the probe must not empty a file the run may never replace
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
                return null;
            } catch (IOException e) {
                return "cannot be written (" + reason(e) + ")";
            }
        }
        try {
            Files.createFile(file);
            Files.delete(file);
            return null;
        } catch (IOException e) {
            return "cannot be created (" + reason(e) + ")";
        }
    }

    private static boolean isDevNull(Path file) {
        try {
            return Files.isSameFile(file, Path.of("/dev/null"));
        } catch (IOException e) {
            return false;
        }
    }

    private static String reason(IOException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String name = e.getClass().getSimpleName();
        // NIO's messages are the path alone for these; the class says what happened
        return switch (name) {
            case "NoSuchFileException" -> "no such file or folder";
            case "AccessDeniedException" -> "permission denied";
            case "FileSystemException" -> m.contains(": ") ? m.substring(m.lastIndexOf(": ") + 2) : m;
            default -> m;
        };
    }
}
