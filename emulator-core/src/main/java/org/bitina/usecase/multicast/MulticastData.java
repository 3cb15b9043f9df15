package org.bitina.usecase.multicast;

import java.util.SplittableRandom;
import java.util.zip.CRC32;

/** The block a reliable multicast distributes (a checkpoint), from a seed, as int32 words per packet. */
public final class MulticastData {
    private final MulticastSpec.Params params;

    public MulticastData(MulticastSpec.Params params) {
        this.params = params;
    }

    public int words(int seq) {
        long start = (long) seq * params.packetBytes();
        long len = Math.min(params.packetBytes(), params.bytes() - start);
        return (int) ((len + 3) / 4);
    }

    public int[] packet(int seq) {
        SplittableRandom r = new SplittableRandom(params.seed() * 0x9E3779B97F4A7C15L + seq);
        int[] w = new int[words(seq)];
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextInt();
        }
        return w;
    }

    /** CRC32 of the whole block as the source holds it. */
    public long checksum() {
        CRC32 crc = new CRC32();
        for (int s = 0; s < params.packets(); s++) {
            update(crc, packet(s));
        }
        return crc.getValue();
    }

    static void update(CRC32 crc, int[] words) {
        byte[] b = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            b[4 * i] = (byte) (words[i] >>> 24);
            b[4 * i + 1] = (byte) (words[i] >>> 16);
            b[4 * i + 2] = (byte) (words[i] >>> 8);
            b[4 * i + 3] = (byte) words[i];
        }
        crc.update(b);
    }
}
