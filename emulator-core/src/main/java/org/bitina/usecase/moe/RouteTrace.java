package org.bitina.usecase.moe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a trace of expert choices ({@code moe { routing { trace = FILE } }}): one line per token,
 * {@code source,token,experts}, the experts by name separated by spaces ({@code h1,0,e2 e5});
 * blank lines and lines starting with {@code #} are skipped. Every token of every source must have
 * exactly one line naming top-k distinct experts of the job; anything else is a problem named by
 * its line, never a token routed by guess.
 */
public final class RouteTrace {
    /** Past this many, the rest of a bad file's problems are counted, not listed. */
    private static final int MOST_PROBLEMS = 10;

    private RouteTrace() {}

    /** The trace, or the problems that keep it from being one (each "FILE:LINE: what"). */
    public record Read(ExpertRouting.Trace trace, List<String> problems) {}

    public static Read read(Path file, String named, List<String> sources, List<String> experts, int topK, int tokens) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return new Read(null, List.of("cannot read the routing trace " + file + ": " + e.getMessage()));
        }
        Map<String, Integer[][]> seen = new LinkedHashMap<>();
        sources.forEach(s -> seen.put(s, new Integer[tokens][]));
        List<String> problems = new ArrayList<>();
        int more = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String why = line(line, seen, experts, topK, tokens);
            if (why != null) {
                if (problems.size() < MOST_PROBLEMS) {
                    problems.add(named + ":" + (n + 1) + ": " + why);
                } else {
                    more++;
                }
            }
        }
        for (Map.Entry<String, Integer[][]> s : seen.entrySet()) {
            for (int t = 0; t < tokens; t++) {
                if (s.getValue()[t] == null) {
                    if (problems.size() < MOST_PROBLEMS) {
                        problems.add(named + ": no line for token " + t + " of source " + s.getKey());
                    } else {
                        more++;
                    }
                }
            }
        }
        if (more > 0) {
            problems.add(named + ": and " + more + " more problems");
        }
        if (!problems.isEmpty()) {
            return new Read(null, List.copyOf(problems));
        }
        Map<String, List<List<Integer>>> choices = new LinkedHashMap<>();
        seen.forEach((s, ts) -> choices.put(s, Arrays.stream(ts).map(List::of).toList()));
        return new Read(new ExpertRouting.Trace(named, choices), List.of());
    }

    /** Takes one line into {@code seen}; returns what is wrong with it, or null. */
    private static String line(String line, Map<String, Integer[][]> seen, List<String> experts, int topK, int tokens) {
        String[] f = line.split(",", -1);
        if (f.length != 3) {
            return "expected source,token,experts (for example h1,0,e2 e5), got '" + line + "'";
        }
        String source = f[0].strip();
        Integer[][] of = seen.get(source);
        if (of == null) {
            return "'" + source + "' is not a source of this job " + seen.keySet();
        }
        int token;
        try {
            token = Integer.parseInt(f[1].strip());
        } catch (NumberFormatException e) {
            return "token '" + f[1].strip() + "' is not a whole number";
        }
        if (token < 0 || token >= tokens) {
            return "token " + token + " is outside 0.." + (tokens - 1) + " (tokens-per-source)";
        }
        if (of[token] != null) {
            return "token " + token + " of source " + source + " is listed twice";
        }
        String[] names = f[2].strip().split("\\s+");
        if (names.length != topK) {
            return "token " + token + " of source " + source + " names " + names.length + " experts; top-k is " + topK;
        }
        Integer[] ids = new Integer[names.length];
        for (int i = 0; i < names.length; i++) {
            int e = experts.indexOf(names[i]);
            if (e < 0) {
                return "unknown expert '" + names[i] + "'";
            }
            for (int j = 0; j < i; j++) {
                if (ids[j] == e) {
                    return "expert '" + names[i] + "' is named twice for token " + token + " of source " + source;
                }
            }
            ids[i] = e;
        }
        Arrays.sort(ids);
        of[token] = ids;
        return null;
    }
}
