package org.bitina.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.FlatBitmap;

/**
 * What the packets built at one node: each self-installed branch (a C-BM, M2 and R2) and each
 * INC tree branch (B2) installed here, per job, by its upstream node, as a union over the job's
 * phase: how many times one was installed and every bit its installs held downstream. Trees
 * that packets build have no static shape; this is what a report can draw of them afterwards.
 * The installs are counted where {@link SelfInstalledTrees} and {@link IncTrees} make them.
 */
public final class ObservedTrees {
    /** Which mechanism installed a branch. */
    enum Mechanism {
        C_BM("C-BM"),
        INC("INC");

        private final String label;

        Mechanism(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /**
     * One observed branch: the mechanism, the node upstream of it (where its aggregate goes), how
     * many installs it had and the union of their downstream bits, printed as the seeds print
     * bitmaps; null past {@link #MAX_PRINTED_BITS} (a k=64 job's union is 65,536 characters, per
     * branch and switch, in every report).
     */
    public record Branch(String mechanism, String upstream, long installs, String bits) {}

    /** The largest bit space whose unions are printed in the report. */
    public static final int MAX_PRINTED_BITS = 4096;

    private record Key(JobKey job, Mechanism mechanism, String upstream) {}

    private static final class Union {
        long installs;
        FlatBitmap bits;
    }

    private final Map<Key, Union> branches = new LinkedHashMap<>();

    /** One install of a branch whose aggregate goes to {@code upstream}, holding {@code bits} downstream. */
    void installed(JobKey job, Mechanism mechanism, String upstream, EndpointSet bits) {
        Union u = branches.computeIfAbsent(new Key(job, mechanism, upstream), k -> new Union());
        u.installs++;
        u.bits = u.bits == null ? bits.toFlat() : u.bits.or(bits);
    }

    /** The branches installed here for {@code job}, in the order first installed. */
    List<Branch> of(JobKey job) {
        List<Branch> out = new ArrayList<>();
        branches.forEach((k, u) -> {
            if (k.job().equals(job)) {
                out.add(new Branch(
                        k.mechanism().label(),
                        k.upstream(),
                        u.installs,
                        u.bits.capacity() <= MAX_PRINTED_BITS ? u.bits.toString() : null));
            }
        });
        return out;
    }

    /** Takes over what {@code before} observed: a switch that crashed or came back within a phase keeps its phase's record. */
    void carryOver(ObservedTrees before) {
        before.branches.forEach((k, u) -> branches.put(k, u));
    }
}
