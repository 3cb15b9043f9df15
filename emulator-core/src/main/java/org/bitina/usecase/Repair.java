package org.bitina.usecase;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bitina.protocol.JobTables;

/**
 * What the controller installs when a phase's aggregation tree is rebuilt around a crashed
 * switch: each live node's new tables for the job, each reachable worker's new uplink, and
 * the workers no path joins to the tree any more (cut off).
 *
 * @param root   the tree's root after the repair
 * @param tables per node, the job's new tables (the down nodes are left out)
 * @param uplinks per worker still joined, where it sends its contributions now
 * @param cutOff the workers with no path to the root, in member order
 * @param aBms   the new A-BMs, for the report
 * @param what   what the report says was done, when the repair rebuilt no VAT (a host baseline's); null: the VAT
 */
public record Repair(
        String root,
        Map<String, JobTables> tables,
        Map<String, String> uplinks,
        List<String> cutOff,
        String aBms,
        String what) {
    /** A VAT rebuilt: its root and A-BMs. */
    public Repair(
            String root, Map<String, JobTables> tables, Map<String, String> uplinks, List<String> cutOff, String aBms) {
        this(root, tables, uplinks, cutOff, aBms, null);
    }

    public Repair {
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        uplinks = Collections.unmodifiableMap(new LinkedHashMap<>(uplinks));
        cutOff = List.copyOf(cutOff);
    }

    /** What the report says of it: when, after what, the new root and A-BMs, who is cut off. */
    public String describe(long vt, String crashed) {
        return describe(vt, crashed, "crashed");
    }

    /** As {@link #describe(long, String)}, after {@code node} did {@code what} ("crashed", "came back"). */
    public String describe(long vt, String node, String event) {
        if (this.what != null) {
            return String.format(
                    Locale.ROOT,
                    "at %.1f us after %s %s: %s; cut off: %s",
                    vt / 1000.0,
                    node,
                    event,
                    this.what,
                    cutOff);
        }
        return String.format(
                Locale.ROOT,
                "VAT rebuilt at %.1f us after %s %s: root %s, A-BMs %s; cut off: %s",
                vt / 1000.0,
                node,
                event,
                root,
                aBms,
                cutOff);
    }
}
