package org.bitina.bench;

import java.util.concurrent.TimeUnit;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.MalformedPacketException;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Encode + decode of one INA packet: a 128-endpoint bit space and a 1 KiB float32 chunk. */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g"})
public class CodecBench {

    @Param({"FLAT", "HIERARCHICAL", "NODE_LIST"})
    public Encoding encoding;

    @Param({"256"})
    public int elements;

    private InaPacket packet;
    private byte[] bytes;

    @Setup
    public void setup() {
        float[] values = new float[elements];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f;
        }
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 42)
                .withOp(ReductionOp.SUM)
                .withSource(3);
        packet = new InaPacket(h, FlatBitmap.of(128, 0, 1, 2, 3, 64, 65, 66, 67).to(encoding, 16), Payload.of(values));
        bytes = PacketCodec.encode(packet);
    }

    @Benchmark
    public InaPacket encodeDecode() throws MalformedPacketException {
        return PacketCodec.decode(PacketCodec.encode(packet));
    }

    @Benchmark
    public byte[] encode() {
        return PacketCodec.encode(packet);
    }

    @Benchmark
    public InaPacket decode() throws MalformedPacketException {
        return PacketCodec.decode(bytes);
    }
}
