package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random mutations of the shipped scenario files fed to {@code bitina validate}: whatever the
 * text, the answer is exit 0 or exit 2 with {@code FILE:LINE:} lines, never a stack trace or a
 * {@link StackOverflowError} (an independent tester found both, with include cycles and deep
 * nesting). Seeded, so a failure names a mutation that replays.
 */
class ValidateFuzzProperties {
    private static final Pattern PROBLEM = Pattern.compile("^\\S.*:\\d+: .+|^bitina: .+");
    private static final String[] FRAGMENTS = {
        "{",
        "}",
        "[",
        "]",
        ",",
        "=",
        ":",
        "\"",
        "\"\"\"",
        "${",
        "${x}",
        "include \"SELF\"",
        "include \"defaults\"",
        "include required(\"nowhere\")",
        "-1",
        "0",
        "1e400",
        "99999999999999999999",
        "NaN",
        "5",
        "5ms",
        "5us",
        "null",
        "true",
        "#",
        "//",
        "\\",
        "all",
        "pod:1-2",
        "h1..h9999999",
        "4XB",
        "[1, 2]",
        "{}",
        "[]",
    };

    private static Path dir;
    private static List<Path> shipped;

    @BeforeContainer
    static void copyShippedFiles() throws IOException {
        dir = Files.createTempDirectory("bitina-fuzz");
        Path src = Path.of("..", "topology-configs");
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.toList()) {
                Path to = dir.resolve(src.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            shipped = files.filter(f -> f.toString().endsWith(".conf")).sorted().toList();
        }
    }

    @AfterContainer
    static void removeCopies() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Property(tries = 300, seed = "26")
    void validateOfAMutatedShippedFileExitsZeroOrTwoWithFileLineLines(@ForAll long seed) throws IOException {
        Random random = new Random(seed);
        Path original = shipped.get(random.nextInt(shipped.size()));
        Path mutated = original.resolveSibling("mutated.conf");
        String text =
                mutate(Files.readString(original), random, mutated.getFileName().toString());
        Files.writeString(mutated, text);
        try {
            long start = System.nanoTime();
            CliTest.Result r = CliTest.cli("validate", mutated.toString());
            long millis = (System.nanoTime() - start) / 1_000_000;
            String what = original.getFileName() + " mutated with seed " + seed + ": exit " + r.code() + "\n" + r.err();
            assertTrue(r.code() == 0 || r.code() == 2, what);
            assertFalse(
                    r.err().contains("Exception")
                            || r.err().contains("Error:")
                            || r.err().contains("\tat "),
                    what);
            if (r.code() == 2) {
                for (String line : r.err().split("\n")) {
                    assertTrue(PROBLEM.matcher(line).matches(), what);
                }
            }
            assertTrue(millis < 5_000, what + " took " + millis + " ms");
        } finally {
            Files.deleteIfExists(mutated);
        }
    }

    /** One to four edits: a deleted or repeated stretch, an inserted fragment, swapped lines, deep nesting. */
    static String mutate(String text, Random random, String selfName) {
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = s.length() == 0 ? 0 : random.nextInt(s.length());
            int len = Math.min(s.length() - at, 1 + random.nextInt(40));
            switch (random.nextInt(6)) {
                case 0 -> s.delete(at, at + len);
                case 1 -> s.insert(at, s.substring(at, at + len));
                case 2 ->
                    s.insert(at, " " + FRAGMENTS[random.nextInt(FRAGMENTS.length)].replace("SELF", selfName) + " ");
                case 3 -> {
                    // a line moved elsewhere: a key out of its section
                    String[] lines = s.toString().split("\n", -1);
                    int a = random.nextInt(lines.length);
                    int b = random.nextInt(lines.length);
                    String t = lines[a];
                    lines[a] = lines[b];
                    lines[b] = t;
                    s = new StringBuilder(String.join("\n", lines));
                }
                case 4 -> {
                    int depth = 10 + random.nextInt(20_000);
                    boolean list = random.nextBoolean();
                    s.insert(
                            at,
                            "\nx = " + (list ? "[" : "{a = ").repeat(depth) + "1" + (list ? "]" : "}").repeat(depth)
                                    + "\n");
                }
                default -> s.replace(at, at + len, String.valueOf(random.nextInt(1 << 20)));
            }
        }
        return s.toString();
    }
}
