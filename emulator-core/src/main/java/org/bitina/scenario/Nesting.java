package org.bitina.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How deeply a scenario file nests objects and lists, found in its text before HOCON parses it.
 * HOCON's parser and resolver recurse once per level: a file of thousands of nested braces
 * (a fuzzer's, or a generator's gone wrong) ends their thread in a {@link StackOverflowError}
 * instead of a {@code FILE:LINE:} problem. No scenario needs more than a dozen levels.
 */
final class Nesting {
    /** The deepest nesting a file may have: far above any real scenario, far below the stack's reach. */
    static final int MAX_DEPTH = 64;

    private Nesting() {}

    /** Where {@code file} first nests deeper than {@link #MAX_DEPTH}, or null when it does not (or cannot be read). */
    static Deep tooDeep(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null; // the parser says what is wrong with reading it
        }
        return tooDeep(text);
    }

    /** A line that nests too deeply, and the message for it. */
    record Deep(int line, String message) {}

    /**
     * The first line whose braces or brackets nest deeper than {@link #MAX_DEPTH}, skipping
     * quoted and triple-quoted strings and comments as HOCON does.
     */
    static Deep tooDeep(String text) {
        int depth = 0;
        int line = 1;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
            } else if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
                while (i + 1 < n && text.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == '"' && text.startsWith("\"\"\"", i)) {
                int end = text.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 2;
                line += count(text, i, Math.min(end, n));
                i = end;
            } else if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"' && text.charAt(i) != '\n') {
                    i += text.charAt(i) == '\\' ? 2 : 1;
                }
                if (i < n && text.charAt(i) == '\n') {
                    line++; // an unterminated string: the parser reports it
                }
            } else if (c == '{' || c == '[') {
                if (++depth > MAX_DEPTH) {
                    return new Deep(line, "objects and lists nested more than " + MAX_DEPTH + " deep");
                }
            } else if (c == '}' || c == ']') {
                depth = Math.max(0, depth - 1);
            }
        }
        return null;
    }

    private static int count(String text, int from, int to) {
        int lines = 0;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                lines++;
            }
        }
        return lines;
    }
}
