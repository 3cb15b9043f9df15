package org.bitina.usecase.reduction;

import java.util.Locale;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.JobKeys;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Topology;
import org.bitina.wire.ElementType;
import org.bitina.wire.ReductionOp;

/** The {@code data} section of a job that reduces an array (AllReduce, BIER-INC; A3, A4). */
public final class DataSection {

    private DataSection() {}

    /**
     * The array {@code c}'s job reduces, or null when it has problems. Whether a chunk fits the
     * links it crosses, its endpoint set encoded, is checked once the job is planned ({@link WireBudget}).
     */
    /** @param data every kind's data section ({@link JobKeys#data}) */
    public static DataSpec read(ConfigReader c, String kind, Topology topology, BitSpace space, Section data) {
        if (!c.has("data")) {
            c.problem(
                    c.origin(),
                    "a" + (kind.startsWith("a") ? "n " : " ") + kind
                            + " job needs a data { elements, type, op, chunk, window, seed } section");
            return null;
        }
        ConfigReader d = c.object("data");
        if (d == null) {
            return null;
        }
        d.checkKeys(data, kind, "data of " + (kind.startsWith("a") ? "an " : "a ") + kind + " job");
        int before = d.problems().count();
        Integer elements = d.requiredInt("elements", 1, 1 << 28);
        String type = d.name("type", "float32");
        String op = d.name("op", "sum");
        int chunk = d.intIn("chunk", 1, 1 << 20, 256);
        int window = d.intIn("window", 1, 1 << 16, 32);
        long seed = d.seed("seed", 1);
        int scale = d.intIn("scale", 1, 1 << 24, 1024);
        ElementType elementType = null;
        if ("float32".equals(type)) {
            elementType = ElementType.FLOAT32;
        } else if ("int32".equals(type)) {
            elementType = ElementType.INT32;
        } else if (type != null) {
            d.problem("type", "data type must be float32 or int32, got '" + type + "'");
        }
        ReductionOp reduction = null;
        if (op != null) {
            try {
                reduction = ReductionOp.valueOf(op.toUpperCase(Locale.ROOT));
                if (reduction == ReductionOp.NONE) {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                d.problem("op", "op must be sum, product, max or min, got '" + op + "'");
            }
        }
        if (d.problems().since(before) || topology == null || space == null) {
            return null;
        }
        return new DataSpec(elements, elementType, reduction, chunk, window, seed, scale);
    }
}
