package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's printed figures are what the runs print (issue 42 item 5: its 1 % loss example said
 * 20.1 ms and 16.3x while the run printed 1.88 ms and 166x). Every {@code ./bitina run} of the
 * README followed by {@code # } lines of output is run in this JVM; each output line, split where
 * the README elides with {@code ...}, must appear in what the run printed (spaces collapsed). Run by
 * failsafe in {@code mvn verify}: the k=8 examples take some seconds each.
 */
class ReadmeExamplesIT {
    record Example(int line, List<String> args, List<String> expected) {
        @Override
        public String toString() {
            return "README.md:" + line + " " + String.join(" ", args);
        }
    }

    static List<Example> examples() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.startsWith("./bitina run ")
                    || i + 1 >= lines.size()
                    || !lines.get(i + 1).startsWith("# ")) {
                continue;
            }
            List<String> args = args(l.substring("./bitina ".length()).replaceAll("\\s+#.*$", ""));
            // the page is no figure of the console's: not written
            int html = args.indexOf("--html");
            if (html >= 0) {
                args.remove(html + 1);
                args.remove(html);
            }
            List<String> printed = new ArrayList<>();
            for (int k = i + 1; k < lines.size() && lines.get(k).startsWith("#"); k++) {
                String text = lines.get(k).substring(1);
                if (text.startsWith("      ") && !printed.isEmpty()) {
                    // a wrapped line of the README: one line of the console
                    printed.set(printed.size() - 1, printed.get(printed.size() - 1) + " " + text.strip());
                } else {
                    printed.add(text.strip());
                }
            }
            List<String> expected = new ArrayList<>();
            for (String p : printed) {
                for (String part : p.split("\\.\\.\\.")) {
                    String f = collapse(part);
                    if (!f.isEmpty()) {
                        expected.add(f);
                    }
                }
            }
            out.add(new Example(i + 1, args, expected));
        }
        return out;
    }

    static Stream<Arguments> cases() throws IOException {
        return examples().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theReadmePrintsWhatTheRunPrints(Example e) {
        assertFalse(e.expected().isEmpty(), e + " shows no output");
        // from the repository's root, as the README runs them
        List<String> args = new ArrayList<>();
        for (String a : e.args()) {
            args.add(a.startsWith("topology-configs/") ? Path.of("..", a).toString() : a);
        }
        CliTest.Result r = CliTest.cli(args.toArray(String[]::new));
        assertEquals(0, r.code(), e + ":\n" + r.out() + r.err());
        String out = collapse(r.out());
        List<String> missing =
                e.expected().stream().filter(f -> !out.contains(f)).toList();
        assertEquals(List.of(), missing, e + ": the README shows what the run did not print; it printed:\n" + r.out());
    }

    private static String collapse(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    /** A command line's words, single quotes kept together as the shell would. */
    static List<String> args(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        StringBuilder word = new StringBuilder();
        int end = -1;
        while (m.find()) {
            if (end >= 0 && m.start() != end) {
                out.add(word.toString());
                word.setLength(0);
            }
            word.append(m.group(1) != null ? m.group(1) : m.group(2));
            end = m.end();
        }
        if (!word.isEmpty()) {
            out.add(word.toString());
        }
        return out;
    }
}
