package org.bitina.scenario;

import com.typesafe.config.ConfigOrigin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every problem of one scenario file, collected rather than thrown so that one
 * {@code validate} reports them all. A problem is placed at the {@code FILE:LINE} of the
 * value it concerns; values from the scenario file itself carry the name it was given on the
 * command line, values from an included file carry that file's path.
 */
public final class Problems {
    private final String displayName;
    private final String absolutePath;
    private final List<Problem> problems = new ArrayList<>();

    public Problems(Path file) {
        this.displayName = file.toString();
        this.absolutePath = file.toAbsolutePath().normalize().toString();
    }

    public String displayName() {
        return displayName;
    }

    public void add(ConfigOrigin origin, String message) {
        String file = displayName;
        int line = 1;
        if (origin != null) {
            if (origin.filename() != null) {
                file = fileName(Path.of(origin.filename()));
            } else if (origin.description() != null && origin.description().startsWith("--set ")) {
                // a value from the command line has no line of the file: say where it came from instead
                message = "(" + origin.description().replaceFirst(":\\s*\\d+$", "") + ") " + message;
            }
            line = Math.max(1, origin.lineNumber());
        }
        problems.add(new Problem(file, line, message));
    }

    /** A problem at a known line of a known file (an include statement, found by its text). */
    public void add(Path file, int line, String message) {
        problems.add(new Problem(fileName(file), Math.max(1, line), message));
    }

    private String fileName(Path file) {
        String f = file.toAbsolutePath().normalize().toString();
        return f.equals(absolutePath) ? displayName : file.toString();
    }

    /** How many problems so far; with {@link #since} a reader asks "did this part add any?". */
    public int count() {
        return problems.size();
    }

    public boolean since(int count) {
        return problems.size() > count;
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /**
     * The problems file by file (in the order files first appear) and line by line, so that
     * the report reads like the file even though the sections are checked one after another.
     */
    public List<Problem> sorted() {
        Map<String, List<Problem>> byFile = new LinkedHashMap<>();
        for (Problem p : problems) {
            byFile.computeIfAbsent(p.file(), f -> new ArrayList<>()).add(p);
        }
        List<Problem> out = new ArrayList<>();
        for (List<Problem> ps : byFile.values()) {
            ps.sort(Comparator.comparingInt(Problem::line));
            out.addAll(ps);
        }
        return List.copyOf(out);
    }
}
