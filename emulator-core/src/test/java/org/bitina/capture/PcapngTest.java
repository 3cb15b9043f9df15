package org.bitina.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pcapng blocks as the format lays them out, read back here block by block (tshark reads them in PcapTsharkTest). */
class PcapngTest {
    /** An enhanced packet block as read back: interface, timestamp, frame, comment. */
    record Epb(int iface, long nanos, byte[] frame, String comment) {}

    @Test
    void packetsAreWrittenInTimeOrderWithEachPhaseFromTheNextWholeSecondAndTheLimitSaid(@TempDir Path dir)
            throws Exception {
        Pcapng p = new Pcapng(40);
        // arriving out of order, as they do from many devices
        p.add(2, "fig1 (ring)", "w1->s1", 5, 0, new byte[] {7}, "fig1 (ring)");
        p.add(1, "fig1 (ina)", "s1->s5", 1_500_000_000L, 3, new byte[] {1, 2, 3, 4, 5}, "fig1 (ina)");
        p.add(1, "fig1 (ina)", "w1->s1", 0, 0, new byte[] {9, 9}, "fig1 (ina): dropped, queue full");
        p.add(1, "fig1 (ina)", "w1->s1", 0, 1, new byte[40], "fig1 (ina)"); // past the 40 bytes held
        Path f = dir.resolve("t.pcapng");
        p.write(f, "bitina");
        assertEquals(1, p.notKept());

        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        List<String> interfaces = new ArrayList<>();
        List<Epb> packets = new ArrayList<>();
        String section = null;
        while (b.hasRemaining()) {
            int start = b.position();
            int type = b.getInt();
            int length = b.getInt();
            assertEquals(0, length % 4, "blocks are 32-bit aligned");
            assertEquals(length, b.getInt(start + length - 4), "the trailing length repeats the leading one");
            if (type == 0x0A0D0D0A) {
                assertEquals(0x1A2B3C4D, b.getInt(start + 8));
                section = option(b, start + 24, start + length - 4, 1);
            } else if (type == 1) {
                assertEquals(1, b.getShort(start + 8), "Ethernet");
                interfaces.add(option(b, start + 16, start + length - 4, 2));
                assertEquals("\u0009", option(b, start + 16, start + length - 4, 9), "nanosecond timestamps");
            } else if (type == 6) {
                int iface = b.getInt(start + 8);
                long nanos = ((long) b.getInt(start + 12) << 32) | (b.getInt(start + 16) & 0xFFFFFFFFL);
                int len = b.getInt(start + 20);
                byte[] frame = new byte[len];
                b.get(start + 28, frame);
                int opts = start + 28 + ((len + 3) & ~3);
                packets.add(new Epb(iface, nanos, frame, option(b, opts, start + length - 4, 1)));
            }
            b.position(start + length);
        }
        assertEquals(List.of("w1->s1", "s1->s5"), interfaces, "one interface per link direction, in order of use");
        assertEquals(
                List.of(0L, 1_500_000_000L, 2_000_000_005L),
                packets.stream().map(Epb::nanos).toList(),
                "phase 2's zero is the whole second after phase 1's last packet");
        assertEquals(List.of(0, 1, 0), packets.stream().map(Epb::iface).toList());
        assertEquals("fig1 (ina): dropped, queue full", packets.get(0).comment());
        assertEquals(5, packets.get(1).frame().length);
        assertTrue(section.contains("fig1 (ina) from 0 s, fig1 (ring) from 2 s"), section);
        assertTrue(section.contains("1 later packets not kept"), section);
    }

    /** The value of option {@code code} among the options in [from, to), or null. */
    private static String option(ByteBuffer b, int from, int to, int code) {
        int at = from;
        while (at + 4 <= to) {
            int c = b.getShort(at) & 0xFFFF;
            int len = b.getShort(at + 2) & 0xFFFF;
            if (c == 0) {
                return null;
            }
            if (c == code) {
                byte[] v = new byte[len];
                b.get(at + 4, v);
                return new String(v, StandardCharsets.UTF_8);
            }
            at += 4 + ((len + 3) & ~3);
        }
        return null;
    }
}
