package org.bitina.node;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.bitina.job.Mode;
import org.bitina.topology.Node;
import org.bitina.topology.Topology;

/**
 * {@code --perfetto run.json}: the run's trace in the Chrome trace event format (ui.perfetto.dev,
 * chrome://tracing), timestamps in modelled time. One process per device (named by metadata
 * events, switches above hosts), with a thread {@code packets} and threads {@code aggregation N}:
 * <ul>
 * <li>an aggregation entry is a slice from its first contribution (or its C-BM install) to its
 *     completion or timeout at that node, keyed by job, mode and sequence id; entries that overlap
 *     go on separate threads (each thread's slices never overlap);</li>
 * <li>a drop or a timeout is an instant;</li>
 * <li>a packet is a flow from the sender's slice (its forward or replicate onto the link) to the receiver's, matched by receiver, job,
 *     mode, sequence id, direction and bitmap, the earliest unmatched send first; only sequence
 *     ids below {@code maxSeq} get packet slices and flows (a k=8 run has millions of hops).</li>
 * </ul>
 * Read from the trace's JSON lines after the run, so the trace stays the one record of events.
 */
final class PerfettoExport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PACKETS = 1;

    private final Topology topology;
    private final int maxSeq;
    private final JsonGenerator out;
    private final Map<String, Integer> pid = new LinkedHashMap<>();
    /** Sends not yet matched to a receive (and receives not yet matched to a send, when the file has them first), by flow key. */
    private final Map<String, ArrayDeque<long[]>> sends = new HashMap<>();

    private final Map<String, ArrayDeque<long[]>> receives = new HashMap<>();
    /** Open aggregation entries: key to start vt. */
    private final Map<String, Long> open = new LinkedHashMap<>();
    /** Per device, its aggregation threads' ends (vt). */
    private final Map<String, List<Long>> lanes = new HashMap<>();

    private long flows;
    private long slices;
    private long lastVt;

    private PerfettoExport(Topology topology, int maxSeq, JsonGenerator out) {
        this.topology = topology;
        this.maxSeq = maxSeq;
        this.out = out;
    }

    /** What the export wrote: flows matched, sends without a receive (lost on a link, or dropped before it), entry slices. */
    record Counts(long flows, long unmatched, long slices) {}

    static Counts convert(Path trace, Topology topology, int maxSeq, Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(trace);
                InputStream in =
                        trace.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
                JsonGenerator g = new JsonFactory().createGenerator(Files.newOutputStream(file))) {
            PerfettoExport e = new PerfettoExport(topology, maxSeq, g);
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ns");
            g.writeArrayFieldStart("traceEvents");
            e.metadata();
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    e.event(JSON.readTree(line));
                }
            }
            e.closeOpen();
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("source", "bitina trace, modelled time");
            g.writeNumberField("packetSeqsBelow", maxSeq);
            g.writeNumberField("flows", e.flows);
            long unmatched =
                    e.sends.values().stream().mapToInt(ArrayDeque::size).sum();
            g.writeNumberField("sendsWithoutReceive", unmatched);
            g.writeEndObject();
            g.writeEndObject();
            return new Counts(e.flows, unmatched, e.slices);
        }
    }

    private void metadata() throws IOException {
        Map<String, Integer> level = TopologyView.levels(topology);
        int top = level.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int i = 1;
        for (Node n : topology.nodes()) {
            pid.put(n.name(), i);
            meta("process_name", i, 0, (n.isSwitch() ? "switch " : "host ") + n.name());
            out.writeStartObject();
            out.writeStringField("ph", "M");
            out.writeStringField("name", "process_sort_index");
            out.writeNumberField("pid", i);
            out.writeObjectFieldStart("args");
            out.writeNumberField("sort_index", (top - level.get(n.name())) * 100_000 + i);
            out.writeEndObject();
            out.writeEndObject();
            meta("thread_name", i, PACKETS, "packets");
            i++;
        }
    }

    private void meta(String what, int p, int tid, String name) throws IOException {
        out.writeStartObject();
        out.writeStringField("ph", "M");
        out.writeStringField("name", what);
        out.writeNumberField("pid", p);
        out.writeNumberField("tid", tid);
        out.writeObjectFieldStart("args");
        out.writeStringField("name", name);
        out.writeEndObject();
        out.writeEndObject();
    }

    private void event(JsonNode e) throws IOException {
        String node = e.path("node").asText();
        String event = e.path("event").asText();
        Integer p = pid.get(node);
        if (p == null || event.equals("clock")) {
            return;
        }
        long vt = e.has("vt_ns") ? e.path("vt_ns").asLong() : e.path("vt").asLong();
        lastVt = Math.max(lastVt, vt);
        String job = e.path("job").asText();
        String mode = e.path("mode").asText(Mode.INA.name());
        long seq = e.path("seq").asLong();
        String dir = e.path("dir").asText();
        String bitmap = e.path("bitmap").asText();
        String detail = e.path("detail").isMissingNode() || e.path("detail").isNull()
                ? null
                : e.path("detail").asText();
        String entry = node + "|" + job + "|" + mode + "|" + seq;
        switch (event) {
            case "install", "terminate" -> open.putIfAbsent(entry, vt);
            case "complete" -> closeEntry(entry, node, vt, job, mode, seq, "complete");
            case "timeout" -> {
                instant(p, vt, "timeout", job, mode, seq, bitmap, detail);
                closeEntry(entry, node, vt, job, mode, seq, "timeout");
            }
            case "drop" -> instant(p, vt, "drop", job, mode, seq, bitmap, detail);
            default -> {}
        }
        if (seq >= maxSeq) {
            return;
        }
        // a host's "send" is followed by its "forward" onto its link: the forward is the hop; a host receives by
        // deliver, terminate, drop
        boolean host = !topology.node(node).isSwitch();
        boolean hop = (event.equals("forward") || event.equals("replicate"))
                && e.path("to").size() > 0;
        boolean isReceive = switch (event) {
            case "terminate", "deliver", "drop" -> true;
            case "forward", "replicate" -> !host;
            default -> false;
        };
        boolean sends = hop;
        if (!isReceive && !sends) {
            return;
        }
        slice(p, PACKETS, vt, 1, event + " " + dir + " " + job + "/" + mode + " #" + seq, "bitmap", bitmap, detail);
        if (isReceive) {
            // a copy whose sender named no per-copy bitmap was kept without one
            String exact = flowKey(node, job, mode, seq, dir, bitmap);
            if (!matched(p, exact, vt) && !matched(p, flowKey(node, job, mode, seq, dir, "?"), vt)) {
                receives.computeIfAbsent(exact, k -> new ArrayDeque<>()).add(new long[] {p, vt});
            }
        }
        if (sends) {
            // the trace writes a replicate event per copy, with its own bitmap and next hop; an event sent to
            // several nodes names no per-copy bitmap, so its receives match on "?"
            List<String> to = new ArrayList<>();
            e.path("to").forEach(t -> to.add(t.asText()));
            for (String t : to) {
                String b = to.size() == 1 ? bitmap : "?";
                sent(p, flowKey(t, job, mode, seq, dir, b), vt);
            }
        }
    }

    private static String flowKey(String receiver, String job, String mode, long seq, String dir, String bitmap) {
        return receiver + "|" + job + "|" + mode + "|" + seq + "|" + dir + "|" + bitmap;
    }

    private void sent(int p, String key, long vt) throws IOException {
        ArrayDeque<long[]> waiting = receives.get(key);
        if (waiting != null) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                long[] r = it.next();
                if (r[1] >= vt) {
                    it.remove();
                    flow(p, vt, (int) r[0], r[1]);
                    return;
                }
            }
        }
        sends.computeIfAbsent(key, k -> new ArrayDeque<>()).add(new long[] {p, vt});
    }

    /** Whether a waiting send to this receive's key matched it (and so became a flow). */
    private boolean matched(int p, String key, long vt) throws IOException {
        ArrayDeque<long[]> waiting = sends.get(key);
        if (waiting != null) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                long[] s = it.next();
                if (s[1] <= vt) {
                    it.remove();
                    flow((int) s[0], s[1], p, vt);
                    return true;
                }
            }
        }
        return false;
    }

    private void flow(int from, long fromVt, int to, long toVt) throws IOException {
        long id = ++flows;
        for (int side = 0; side < 2; side++) {
            out.writeStartObject();
            out.writeStringField("ph", side == 0 ? "s" : "f");
            out.writeStringField("name", "packet");
            out.writeStringField("cat", "packet");
            out.writeNumberField("id", id);
            out.writeNumberField("pid", side == 0 ? from : to);
            out.writeNumberField("tid", PACKETS);
            out.writeFieldName("ts");
            out.writeNumber(micros(side == 0 ? fromVt : toVt));
            out.writeStringField("bp", "e");
            out.writeEndObject();
        }
    }

    private void closeEntry(String entry, String node, long vt, String job, String mode, long seq, String how)
            throws IOException {
        Long start = open.remove(entry);
        if (start == null) {
            return;
        }
        List<Long> ends = lanes.computeIfAbsent(node, k -> new ArrayList<>());
        int lane = 0;
        while (lane < ends.size() && ends.get(lane) > start) {
            lane++;
        }
        if (lane == ends.size()) {
            ends.add(0L);
            meta("thread_name", pid.get(node), PACKETS + 1 + lane, "aggregation " + (lane + 1));
        }
        long end = Math.max(vt, start + 1);
        ends.set(lane, end);
        slices++;
        slice(
                pid.get(node),
                PACKETS + 1 + lane,
                start,
                end - start,
                "entry " + job + "/" + mode + " #" + seq,
                "ended",
                how,
                null);
    }

    /** Entries still open when the trace ends are drawn to its last event. */
    private void closeOpen() throws IOException {
        for (String entry : new ArrayList<>(open.keySet())) {
            String[] k = entry.split("\\|");
            closeEntry(entry, k[0], lastVt, k[1], k[2], Long.parseLong(k[3]), "still open at the end of the trace");
        }
    }

    private void slice(int p, int tid, long vt, long durNanos, String name, String arg, String value, String detail)
            throws IOException {
        out.writeStartObject();
        out.writeStringField("ph", "X");
        out.writeStringField("name", name);
        out.writeNumberField("pid", p);
        out.writeNumberField("tid", tid);
        out.writeFieldName("ts");
        out.writeNumber(micros(vt));
        out.writeFieldName("dur");
        out.writeNumber(micros(durNanos));
        args(arg, value, detail);
        out.writeEndObject();
    }

    private void instant(int p, long vt, String what, String job, String mode, long seq, String bitmap, String detail)
            throws IOException {
        out.writeStartObject();
        out.writeStringField("ph", "i");
        out.writeStringField("s", "t");
        out.writeStringField("name", what + " " + job + "/" + mode + " #" + seq);
        out.writeNumberField("pid", p);
        out.writeNumberField("tid", PACKETS);
        out.writeFieldName("ts");
        out.writeNumber(micros(vt));
        args("bitmap", bitmap, detail);
        out.writeEndObject();
    }

    /** Nanoseconds as exact microseconds (the format's unit): 5522 ns is 5.522, with no binary rounding. */
    private static BigDecimal micros(long nanos) {
        return BigDecimal.valueOf(nanos, 3);
    }

    private void args(String arg, String value, String detail) throws IOException {
        out.writeObjectFieldStart("args");
        out.writeStringField(arg, value);
        if (detail != null) {
            out.writeStringField("detail", detail);
        }
        out.writeEndObject();
    }
}
