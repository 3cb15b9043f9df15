package org.bitina.capture;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's link transmissions as a pcapng file (the format is small: a section header, an
 * interface description per link direction, an enhanced packet block per packet). No pcapng writer
 * for Java is both kept up and in Maven Central, so these three blocks are written here, as the
 * format's draft lays them out, and tshark reads them back in the tests.
 *
 * <p>Packets arrive from the devices in no fixed order; the file is written sorted (phase, time,
 * link, sequence, bytes), so the same run gives the same file on any load and any number of JVMs.
 * Timestamps are modelled nanoseconds ({@code if_tsresol} 9); each phase of the run starts its
 * modelled time at zero, so phase k is laid after phase k-1 from the next whole second (the
 * section comment says where each begins). Packets are held until the run ends: beyond
 * {@code limitBytes} of frames the rest are counted, not kept, and the section comment says how many.
 */
public final class Pcapng {
    private static final int SHB = 0x0A0D0D0A;
    private static final int IDB = 1;
    private static final int EPB = 6;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final short OPT_END = 0;
    private static final short OPT_COMMENT = 1;
    private static final short IF_NAME = 2;
    private static final short IF_TSRESOL = 9;
    private static final short SHB_USERAPPL = 4;
    private static final long SECOND = 1_000_000_000L;

    /** One packet on link direction {@code link} at modelled time {@code vt} of run phase {@code phase}. */
    record Packet(int phase, String link, long vt, long seq, String comment, byte[] frame) {}

    private static final Comparator<Packet> ORDER = Comparator.comparingInt(Packet::phase)
            .thenComparingLong(Packet::vt)
            .thenComparing(Packet::link)
            .thenComparingLong(Packet::seq)
            .thenComparing(Packet::frame, Arrays::compare)
            .thenComparing(Packet::comment);

    private final long limitBytes;
    private final List<Packet> packets = new ArrayList<>();
    private final Map<Integer, String> phaseNames = new TreeMap<>();
    private long heldBytes;
    private long notKept;

    public Pcapng(long limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** Adds a packet; {@code phaseName} says what the phase ran (its first packet's job and mode). */
    public void add(int phase, String phaseName, String link, long vt, long seq, byte[] frame, String comment) {
        if (heldBytes + frame.length > limitBytes) {
            notKept++;
            return;
        }
        heldBytes += frame.length;
        phaseNames.putIfAbsent(phase, phaseName);
        packets.add(new Packet(phase, link, vt, seq, comment, frame));
    }

    /** Packets past the limit, not in the file. */
    public long notKept() {
        return notKept;
    }

    public int packets() {
        return packets.size();
    }

    /** Writes the file: {@code application} names the writer in the section header. */
    public void write(Path file, String application) throws IOException {
        packets.sort(ORDER);
        Map<Integer, Long> base = phaseBases();
        Map<String, Integer> interfaces = new LinkedHashMap<>();
        for (Packet p : packets) {
            interfaces.putIfAbsent(p.link(), interfaces.size());
        }
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(sectionHeader(application, comment(base)));
            for (String link : interfaces.keySet()) {
                out.write(interfaceDescription(link));
            }
            for (Packet p : packets) {
                out.write(
                        enhancedPacket(interfaces.get(p.link()), base.get(p.phase()) + p.vt(), p.frame(), p.comment()));
            }
        }
    }

    /** Where each phase's zero lies in the file: after the previous phase's last packet, on a whole second. */
    private Map<Integer, Long> phaseBases() {
        Map<Integer, Long> last = new TreeMap<>();
        for (Packet p : packets) {
            last.merge(p.phase(), p.vt(), Math::max);
        }
        Map<Integer, Long> base = new TreeMap<>();
        long next = 0;
        for (Map.Entry<Integer, Long> e : last.entrySet()) {
            base.put(e.getKey(), next);
            next = Math.floorDiv(next + Math.max(0, e.getValue()), SECOND) * SECOND + SECOND;
        }
        return base;
    }

    private String comment(Map<Integer, Long> base) {
        StringBuilder sb = new StringBuilder("bitina capture, modelled time; ");
        List<String> parts = new ArrayList<>();
        base.forEach((phase, at) -> parts.add(phaseNames.get(phase) + " from " + at / SECOND + " s"));
        sb.append(String.join(", ", parts));
        if (notKept > 0) {
            sb.append("; ")
                    .append(notKept)
                    .append(" later packets not kept past ")
                    .append(limitBytes >> 20)
                    .append(" MiB (narrow the capture with --trace-filter)");
        }
        return sb.toString();
    }

    private static byte[] sectionHeader(String application, String comment) {
        Options o = new Options().add(SHB_USERAPPL, utf8(application)).add(OPT_COMMENT, utf8(comment));
        ByteBuffer body = le(16 + o.length());
        body.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        o.into(body);
        return block(SHB, body.array());
    }

    private static byte[] interfaceDescription(String link) {
        Options o = new Options().add(IF_NAME, utf8(link)).add(IF_TSRESOL, new byte[] {9});
        ByteBuffer body = le(8 + o.length());
        body.putShort((short) LINKTYPE_ETHERNET).putShort((short) 0).putInt(0);
        o.into(body);
        return block(IDB, body.array());
    }

    private static byte[] enhancedPacket(int iface, long nanos, byte[] frame, String comment) {
        Options o = new Options();
        if (comment != null) {
            o.add(OPT_COMMENT, utf8(comment));
        }
        ByteBuffer body = le(20 + padded(frame.length) + o.length());
        body.putInt(iface)
                .putInt((int) (nanos >>> 32))
                .putInt((int) nanos)
                .putInt(frame.length)
                .putInt(frame.length);
        body.put(frame).position(20 + padded(frame.length));
        o.into(body);
        return block(EPB, body.array());
    }

    private static byte[] block(int type, byte[] body) {
        int total = 12 + body.length;
        return le(total).putInt(type).putInt(total).put(body).putInt(total).array();
    }

    /** Options of a block: code, length, value padded to 32 bits; opt_endofopt after the last. */
    private static final class Options {
        private final List<byte[]> values = new ArrayList<>();
        private final List<Short> codes = new ArrayList<>();

        Options add(short code, byte[] value) {
            codes.add(code);
            values.add(value);
            return this;
        }

        int length() {
            if (codes.isEmpty()) {
                return 0;
            }
            int n = 4;
            for (byte[] v : values) {
                n += 4 + padded(v.length);
            }
            return n;
        }

        void into(ByteBuffer b) {
            if (codes.isEmpty()) {
                return;
            }
            for (int i = 0; i < codes.size(); i++) {
                byte[] v = values.get(i);
                b.putShort(codes.get(i)).putShort((short) v.length).put(v);
                b.position(b.position() + padded(v.length) - v.length);
            }
            b.putShort(OPT_END).putShort((short) 0);
        }
    }

    private static int padded(int n) {
        return (n + 3) & ~3;
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
