package org.bitina.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;

/**
 * The determinism contract of the virtual clock (README "Two clocks"): two runs of one file
 * report the same, except for the wall-clock fields {@code jobs[].wallMillis} and {@code setup}
 * and where the devices ran ({@code placement}).
 */
public final class RunComparison {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunComparison() {}

    /** The report without the fields allowed to differ between two runs of one file. */
    public static JsonNode comparable(Report r) {
        return comparable((JsonNode) JSON.valueToTree(r));
    }

    /** The same for a report read back from its JSON (the CLI's {@code --report}); the tree itself is left as it is. */
    public static JsonNode comparable(JsonNode report) {
        ObjectNode tree = report.deepCopy();
        tree.remove("placement");
        tree.remove("setup");
        tree.withArray("jobs").forEach(j -> ((ObjectNode) j).remove("wallMillis"));
        return tree;
    }

    /** Where two reports first differ beyond the allowed fields (a JSON path and both values), or null when they agree. */
    public static String firstDifference(Report a, Report b) {
        return firstDifference(comparable(a), comparable(b), "");
    }

    /** The same for two reports read back from their JSON: a run in containers against one in this JVM. */
    public static String firstDifference(JsonNode a, JsonNode b) {
        return firstDifference(comparable(a), comparable(b), "");
    }

    private static String firstDifference(JsonNode a, JsonNode b, String path) {
        if (a.isContainerNode() && b.isContainerNode() && a.getNodeType() == b.getNodeType()) {
            if (a.size() != b.size()) {
                return (path.isEmpty() ? "." : path) + ": " + a.size() + " vs " + b.size() + " entries";
            }
            Iterator<String> names = a.isObject() ? a.fieldNames() : null;
            for (int i = 0; a.isArray() ? i < a.size() : names.hasNext(); i++) {
                String key = a.isArray() ? null : names.next();
                JsonNode x = a.isArray() ? a.get(i) : a.get(key);
                JsonNode y = a.isArray() ? b.get(i) : b.get(key);
                String here = path + (a.isArray() ? "[" + i + "]" : "." + key);
                if (y == null) {
                    return here + ": missing in the second";
                }
                String d = firstDifference(x, y, here);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        return a.equals(b) ? null : path + ": " + a + " vs " + b;
    }
}
