package org.bitina.run;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.bitina.device.DeviceCommand;
import org.bitina.scenario.FaultSpec;
import org.bitina.time.Durations;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.Phase;
import org.bitina.usecases.UseCases;

/**
 * The time views of one phase's report, all in modelled time (so the same under the virtual
 * clock at any load): when its units completed ({@link Report.Completion}), the switches'
 * soft-state entries over time ({@link Report.StateEntries}) and the faults on the time axis.
 */
final class PhaseTimeline {
    /** Buckets of the entries series: enough for a chart, few enough for a report. */
    static final int BUCKETS = 200;

    private PhaseTimeline() {}

    /**
     * Unit u (a chunk, token or window) completes when the last awaited endpoint has its first
     * result of u; a unit some endpoint never got is not completed. Null when no endpoint reports times.
     */
    static Report.Completion completion(Phase p, Collection<DriverReport> ending) {
        long[] done = null;
        boolean[] missed = null;
        for (DriverReport r : ending) {
            if (r.unitVt() == null) {
                continue;
            }
            if (done == null) {
                done = new long[r.unitVt().length];
                missed = new boolean[done.length];
            }
            for (int u = 0; u < Math.min(done.length, r.unitVt().length); u++) {
                if (r.unitVt()[u] < 0) {
                    missed[u] = true;
                } else {
                    done[u] = Math.max(done[u], r.unitVt()[u]);
                }
            }
        }
        if (done == null) {
            return null;
        }
        Histogram h = new Histogram(3);
        long min = Long.MAX_VALUE;
        long max = 0;
        int completed = 0;
        for (int u = 0; u < done.length; u++) {
            if (!missed[u]) {
                h.recordValue(done[u]);
                min = Math.min(min, done[u]);
                max = Math.max(max, done[u]);
                completed++;
            }
        }
        List<double[]> cdf = new ArrayList<>();
        final long top = max;
        if (completed > 0) {
            h.percentiles(5).forEach(v -> {
                // a bucket's highest equivalent value, never past the exact maximum
                double us = Math.min(top, h.highestEquivalentValue(v.getValueIteratedTo())) / 1000.0;
                double f = v.getPercentileLevelIteratedTo() / 100.0;
                if (cdf.isEmpty() || cdf.get(cdf.size() - 1)[0] != us) {
                    cdf.add(new double[] {us, f});
                } else {
                    cdf.get(cdf.size() - 1)[1] = f;
                }
            });
        }
        return new Report.Completion(
                unitName(p),
                done.length,
                completed,
                completed == 0 ? 0 : min / 1000.0,
                at(h, 50, max),
                at(h, 90, max),
                at(h, 99, max),
                max / 1000.0,
                cdf);
    }

    /** The histogram's value at a percentile, in microseconds, never past the exact maximum. */
    private static double at(Histogram h, double percentile, long max) {
        return h.getTotalCount() == 0 ? 0 : Math.min(max, h.getValueAtPercentile(percentile)) / 1000.0;
    }

    private static String unitName(Phase p) {
        return UseCases.unit(p.job());
    }

    /**
     * The switches' live aggregation entries of the phase over modelled time: per bucket the
     * most held at once over all switches (exact: the switches' steps are summed), and each
     * switch's own peak in this phase. Null when no switch held an entry.
     */
    static Report.StateEntries entries(Collection<DeviceCommand.DeviceStats> stats, long endNanos) {
        TreeMap<Long, Long> deltas = new TreeMap<>();
        Map<String, Integer> peaks = new LinkedHashMap<>();
        long last = 0;
        for (DeviceCommand.DeviceStats s : stats) {
            if (!s.isSwitch()
                    || s.entriesOverTime() == null
                    || s.entriesOverTime().isEmpty()) {
                continue;
            }
            long level = 0;
            int peak = 0;
            for (long[] step : s.entriesOverTime()) {
                deltas.merge(step[0], step[1] - level, Long::sum);
                level = step[1];
                peak = (int) Math.max(peak, level);
                last = Math.max(last, step[0]);
            }
            if (peak > 0) {
                peaks.put(s.node(), peak);
            }
        }
        if (peaks.isEmpty()) {
            return null;
        }
        long end = Math.max(Math.max(endNanos, last), 1);
        long width = Math.max(1, (end + BUCKETS - 1) / BUCKETS);
        int[] most = new int[(int) (end / width) + 1];
        long level = 0;
        long from = 0;
        for (Map.Entry<Long, Long> d : deltas.entrySet()) {
            // the level held over [from, d.key) counts in every bucket that interval touches
            mark(most, from, d.getKey(), level, width);
            level += d.getValue();
            from = d.getKey();
            mark(most, from, from + 1, level, width);
        }
        List<Integer> series = new ArrayList<>(most.length);
        for (int m : most) {
            series.add(m);
        }
        return new Report.StateEntries(width / 1000.0, series, peaks);
    }

    private static void mark(int[] most, long from, long to, long level, long width) {
        if (level <= 0 || to <= from) {
            return;
        }
        int a = (int) Math.min(most.length - 1, from / width);
        int b = (int) Math.min(most.length - 1, (to - 1) / width);
        for (int i = a; i <= b; i++) {
            most[i] = (int) Math.max(most[i], level);
        }
    }

    /**
     * The scenario's faults as they came to this phase: the network faults the runner applied
     * (those still pending when it ended are in {@code faultsNotApplied} instead; a shared world's
     * job alone meets none), and the endpoint faults (stragglers, silent endpoints) of the phase's
     * drivers, in time order.
     */
    static List<Report.FaultMark> faults(List<FaultSpec> plan, List<FaultSpec> applied, Phase p) {
        Set<String> hosts = new HashSet<>();
        p.drivers().forEach(d -> hosts.add(d.host()));
        List<Report.FaultMark> out = new ArrayList<>();
        for (FaultSpec f : plan) {
            boolean network = f.inNetwork();
            if (network ? applied.contains(f) : hosts.contains(f.node())) {
                out.add(new Report.FaultMark(f.at().toNanos() / 1000.0, f.kind().configName(), describe(f)));
            }
        }
        out.sort(Comparator.comparingDouble(Report.FaultMark::atMicros));
        return out;
    }

    static String describe(FaultSpec f) {
        StringBuilder b = new StringBuilder(f.kind().configName());
        if (f.node() != null) {
            b.append(' ').append(f.node());
        }
        if (f.link() != null) {
            b.append(' ').append(f.link().a()).append('-').append(f.link().b());
        }
        if (f.kind() == FaultSpec.Kind.MEMBER_LOSS) {
            b.append(" member ").append(f.member());
        }
        if (f.rate() > 0) {
            b.append(String.format(Locale.ROOT, " rate %.3g", f.rate()));
        }
        if (f.delay() != null && !f.delay().isZero()) {
            b.append(" delay ").append(Durations.of(f.delay().toNanos()));
        }
        if (f.chunks() != null && !f.chunks().isEmpty()) {
            b.append(" chunks ").append(f.chunks());
        }
        return b.toString();
    }
}
