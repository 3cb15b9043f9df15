package org.bitina.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.bitina.capture.Pcapng;
import org.bitina.protocol.PacketCapture;
import org.bitina.protocol.TraceEvent;
import org.bitina.protocol.TraceFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the per-event trace as JSON lines (docs/reference.md: node, job, mode, seq, event, dir,
 * bitmap, to, vt), so that devices never block on I/O. The first line names the clock, the unit
 * of {@code vt} and the filter; only the events the {@link TraceFilter} passes are written.
 * Also writes the packet capture ({@code --pcap}, {@link Pcapng}) when asked, under the same
 * filter; either output may be absent.
 */
public final class TraceWriter extends AbstractBehavior<TraceWriter.Command> {
    public interface Command extends NoSerializationVerificationNeeded {}

    record Event(TraceEvent event) implements Command {}

    record Captured(PacketCapture packet) implements Command {}

    /** Frames held for the capture at most: a k=8 run of 1M floats puts tens of gigabytes on its links. */
    static final long CAPTURE_LIMIT_BYTES = 1L << 30;

    /** Flush and close, then reply. */
    public record Close(ActorRef<Boolean> replyTo) implements Command {}

    private static final Logger log = LoggerFactory.getLogger(TraceWriter.class);

    /** The JSON lines, or null without {@code --trace}. */
    private final BufferedWriter out;

    private final ObjectMapper json = new ObjectMapper();
    private final TraceFilter filter;
    private final Path pcapFile;
    private final Pcapng pcap;

    /**
     * A trace into {@code file} and a capture into {@code pcap}, either null for none. The trace's
     * first line names the clock the run is on, the unit of every {@code vt} and the filter ({@code
     * "event":"clock","clock":"virtual","vt_unit":"ns","filter":"node=s1"}).
     */
    public static Behavior<Command> create(Path file, Path pcap, String clock, TraceFilter filter) {
        return Behaviors.setup(ctx -> new TraceWriter(ctx, file, pcap, clock, filter));
    }

    /**
     * Adapts a TraceEvent ref for the devices. A {@link CloseMarker} goes through the same
     * adapter, so that every event the devices sent before it is written before the file closes.
     */
    public static Behavior<Object> adapter(ActorRef<Command> writer) {
        return Behaviors.receiveMessage(m -> {
            if (m instanceof TraceEvent e) {
                writer.tell(new Event(e));
            } else if (m instanceof PacketCapture p) {
                writer.tell(new Captured(p));
            } else if (m instanceof CloseMarker c) {
                writer.tell(new Close(c.replyTo()));
            }
            return Behaviors.same();
        });
    }

    /** Close the trace after every event sent before it. */
    public record CloseMarker(ActorRef<Boolean> replyTo) implements NoSerializationVerificationNeeded {}

    private TraceWriter(ActorContext<Command> ctx, Path file, Path pcap, String clock, TraceFilter filter) {
        super(ctx);
        this.filter = filter;
        this.pcapFile = pcap;
        this.pcap = pcap == null ? null : new Pcapng(CAPTURE_LIMIT_BYTES);
        if (file == null) {
            this.out = null;
            return;
        }
        try {
            // a name ending in .gz gets a gzip stream: a k=8 trace is gigabytes as text
            this.out = file.getFileName().toString().endsWith(".gz")
                    ? new BufferedWriter(new OutputStreamWriter(
                            new GZIPOutputStream(Files.newOutputStream(file), 1 << 16), StandardCharsets.UTF_8))
                    : Files.newBufferedWriter(file);
            // a line with every field of the contract, so readers of events need no special case
            Map<String, Object> first = new LinkedHashMap<>();
            first.put("node", "-");
            first.put("job", "-");
            first.put("mode", "-");
            first.put("seq", 0);
            first.put("event", "clock");
            first.put("dir", "-");
            first.put("bitmap", "");
            first.put("to", List.of());
            first.put("vt", 0);
            first.put("clock", clock);
            // vt stays the contract's name (docs/reference.md); its unit is said once here, not on every line
            first.put("vt_unit", TraceEvent.VT_UNIT);
            first.put("filter", filter.toString());
            out.write(json.writeValueAsString(first));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace to " + file, e);
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Event.class, this::onEvent)
                .onMessage(Captured.class, this::onCaptured)
                .onMessage(Close.class, this::onClose)
                .build();
    }

    private Behavior<Command> onEvent(Event m) throws IOException {
        TraceEvent e = m.event();
        if (out == null || !filter.test(e)) {
            return this;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("node", e.node());
        line.put("job", e.job());
        line.put("mode", e.modeName());
        line.put("seq", e.seq());
        line.put("event", e.event().label());
        line.put("dir", e.dir());
        line.put("bitmap", e.bitmap());
        line.put("to", e.to());
        line.put("vt", e.vt());
        if (e.detail() != null) {
            line.put("detail", e.detail());
        }
        out.write(json.writeValueAsString(line));
        out.write('\n');
        return this;
    }

    private Behavior<Command> onCaptured(Captured m) {
        PacketCapture c = m.packet();
        TraceEvent e = c.event();
        if (!filter.test(e)) {
            return this;
        }
        String job = e.job() + " (" + e.modeName() + ")";
        pcap.add(
                c.phase(),
                job,
                c.link(),
                e.vt(),
                e.seq(),
                c.frame(),
                e.detail() == null ? job : job + ": dropped, " + e.detail());
        return this;
    }

    private Behavior<Command> onClose(Close m) throws IOException {
        if (out != null) {
            out.close();
        }
        if (pcap != null) {
            pcap.write(pcapFile, "bitina");
            if (pcap.notKept() > 0) {
                log.warn(
                        "the capture {} holds its first {} packets ({} MiB); {} later ones are not in it: narrow it with --trace-filter",
                        pcapFile,
                        pcap.packets(),
                        CAPTURE_LIMIT_BYTES >> 20,
                        pcap.notKept());
            }
        }
        m.replyTo().tell(Boolean.TRUE);
        return Behaviors.stopped();
    }
}
