package org.bitina.node;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Long lists of endpoint names as a reader takes them in: runs of one prefix with consecutive
 * numbers collapsed ({@code h3..h128}), and past a few entries the count too ({@code h3..h128
 * (126 hosts)}). The report keeps every name; this is for tables and sentences.
 */
final class Hosts {
    private static final Pattern NUMBERED = Pattern.compile("(.*?)(\\d+)");

    private Hosts() {}

    /** Up to eight names as they are ("w1, w2"); "h3, h4, ..., h128" becomes "h3..h128 (126 hosts)". */
    static String summary(List<String> names) {
        if (names.size() <= 8) {
            return String.join(", ", names);
        }
        List<String> runs = runs(names);
        String text = String.join(", ", runs.size() > 4 ? runs.subList(0, 4) : runs) + (runs.size() > 4 ? ", ..." : "");
        return text + " (" + names.size() + " hosts)";
    }

    /** Consecutive names of one prefix as one run: [h1, h2, h3, h7] -> [h1..h3, h7]. */
    static List<String> runs(List<String> names) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < names.size()) {
            Matcher m = NUMBERED.matcher(names.get(i));
            int j = i;
            if (m.matches() && m.group(2).length() < 10) {
                String prefix = m.group(1);
                long n = Long.parseLong(m.group(2));
                while (j + 1 < names.size() && names.get(j + 1).equals(prefix + (n + (j + 1 - i)))) {
                    j++;
                }
            }
            out.add(j == i ? names.get(i) : names.get(i) + ".." + names.get(j));
            i = j + 1;
        }
        return out;
    }
}
