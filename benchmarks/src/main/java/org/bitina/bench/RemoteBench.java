package org.bitina.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.device.DeviceCommand;
import org.bitina.protocol.Frame;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * Cross-JVM messages per second over Artery TCP on loopback (issue 6): the same 1 KiB-payload
 * packet as a data-plane frame through the project's binary codec ({@code FrameSerializer})
 * and as a plain record through Jackson CBOR, measured side by side in one run, several
 * rounds each, alternating. A second JVM (this class with {@code receiver}) counts and acks.
 *
 * <pre>./bench remote [--messages N] [--rounds R]</pre>
 */
public final class RemoteBench {
    /** Marker bound to Jackson CBOR in this benchmark's config. */
    public interface Cbor {}

    /** The packet's fields as a plain record, for Jackson CBOR. */
    public record CborFrame(
            int type,
            int flags,
            int op,
            int tenant,
            int job,
            long seq,
            int source,
            int destination,
            int capacity,
            int entropy,
            long[] bitmap,
            float[] payload,
            String from)
            implements Cbor {}

    /** CBOR frames batched as the binary ones are, so that the codecs compare alone (issue 17). */
    public record CborBatch(List<CborFrame> frames) implements Cbor {}

    private static final int ACK_EVERY = 500;
    private static final int BATCH = 16;
    /** Below Artery's outbound queue (3,072 messages by default), which drops what overflows it. */
    private static final int WINDOW = 2000;

    private static Config config(int port) {
        return ConfigFactory.parseString("""
                pekko.actor.provider = remote
                pekko.remote.artery.transport = tcp
                pekko.remote.artery.canonical.hostname = 127.0.0.1
                pekko.remote.artery.canonical.port = %d
                pekko.actor.allow-java-serialization = off
                pekko.actor.serialization-bindings { "org.bitina.bench.RemoteBench$Cbor" = jackson-cbor }
                pekko.loglevel = WARNING
                pekko.loggers = ["org.apache.pekko.event.Logging$DefaultLogger"]
                pekko.logging-filter = "org.apache.pekko.event.DefaultLoggingFilter"
                """.formatted(port)).withFallback(ConfigFactory.load());
    }

    /** Counts arrivals and acks every ACK_EVERY of them. */
    static final class Counter extends AbstractActor {
        private long count;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(String.class, s -> {
                        count = 0;
                        getSender().tell("ready", getSelf());
                    })
                    .matchAny(m -> {
                        if (++count % ACK_EVERY == 0) {
                            getSender().tell(count, getSelf());
                        }
                    })
                    .build();
        }
    }

    /** Keeps at most WINDOW messages unacknowledged (Artery drops what overflows its queues). */
    static final class Sender extends AbstractActor {
        private final ActorRef target;
        private final Object message;
        private final long total;
        private final CompletableFuture<Long> done;
        private long sent;
        private long start;

        Sender(ActorRef target, Object message, long total, CompletableFuture<Long> done) {
            this.target = target;
            this.message = message;
            this.total = total;
            this.done = done;
        }

        @Override
        public void preStart() {
            target.tell("reset", getSelf());
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .matchEquals("ready", r -> {
                        start = System.nanoTime();
                        pump(0);
                    })
                    .match(Long.class, acked -> {
                        if (acked >= total) {
                            done.complete(System.nanoTime() - start);
                            getContext().stop(getSelf());
                        } else {
                            pump(acked);
                        }
                    })
                    .build();
        }

        private void pump(long acked) {
            while (sent < total && sent - acked < WINDOW) {
                target.tell(message, getSelf());
                sent++;
            }
        }
    }

    @picocli.CommandLine.Command(
            name = "./bench remote",
            mixinStandardHelpOptions = true,
            description = "Cross-JVM messages per second over Artery TCP: the INA codec against Jackson CBOR.")
    static final class Options {
        @picocli.CommandLine.Option(
                names = "--messages",
                paramLabel = "N",
                description = "messages per measurement (default ${DEFAULT-VALUE})")
        long messages = 200_000;

        @picocli.CommandLine.Option(
                names = "--rounds",
                paramLabel = "R",
                description = "measurements of each kind (default ${DEFAULT-VALUE})")
        int rounds = 5;
    }

    /** {@code n} up to the next multiple of 4 acks: a measurement, and its quarter for the warm-up, are whole acks. */
    static long roundedMessages(long n) {
        long unit = 4L * ACK_EVERY;
        return Math.max(1, (n + unit - 1) / unit) * unit;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("receiver")) {
            ActorSystem system = ActorSystem.create("rx", config(0));
            system.actorOf(Props.create(Counter.class, Counter::new), "counter");
            int port = (Integer) system.provider().getDefaultAddress().port().get();
            System.out.println("READY " + port);
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            system.terminate();
            return;
        }
        Options o = BenchArgs.parse(new Options(), args);
        int rounds = o.rounds;
        if (o.messages < 1 || rounds < 1) {
            System.err.println("--messages and --rounds must be at least 1");
            System.exit(2);
        }
        long messages = roundedMessages(o.messages);
        if (messages != o.messages) {
            System.err.printf(
                    "--messages %d: sending %d, the next multiple of %d (the warm-up sends a quarter, in whole acks)%n",
                    o.messages, messages, 4 * ACK_EVERY);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process rx = new ProcessBuilder(
                        java,
                        "-Xmx1g",
                        "-cp",
                        System.getProperty("java.class.path"),
                        RemoteBench.class.getName(),
                        "receiver")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(rx.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("READY ")) {
                throw new IllegalStateException("receiver JVM did not start: " + line);
            }
            int port = Integer.parseInt(line.substring(6).trim());
            ActorSystem system = ActorSystem.create("tx", config(0));
            try {
                ActorRef counter = system.actorSelection("pekko://rx@127.0.0.1:" + port + "/user/counter")
                        .resolveOne(Duration.ofSeconds(10))
                        .toCompletableFuture()
                        .get(15, TimeUnit.SECONDS);
                float[] values = new float[256];
                for (int i = 0; i < values.length; i++) {
                    values[i] = i * 0.5f;
                }
                FlatBitmap bits = FlatBitmap.of(128, 3);
                InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 7, 42)
                        .withOp(ReductionOp.SUM)
                        .withSource(3)
                        .withDestination(9);
                InaPacket packet = new InaPacket(h, bits, Payload.of(values));
                Object binary = new DeviceCommand.FrameIn(new Frame(packet, "s1", 1234), "w3");
                // what a device sends one neighbour in one turn goes as one message (FrameBatch)
                List<DeviceCommand.FrameIn> batchFrames = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    batchFrames.add((DeviceCommand.FrameIn) binary);
                }
                Object batch = new DeviceCommand.FrameBatch(batchFrames);
                Object cbor = new CborFrame(
                        h.type().wireValue(),
                        h.flags(),
                        h.op().wireValue(),
                        h.tenant(),
                        h.job(),
                        h.seq(),
                        h.source(),
                        h.destination(),
                        bits.capacity(),
                        h.entropy(),
                        bits.words(),
                        values,
                        "w3");
                List<CborFrame> cborFrames = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    cborFrames.add((CborFrame) cbor);
                }
                Object cborBatch = new CborBatch(cborFrames);
                System.out.printf(
                        "packet: %d bytes on the wire (INA codec), payload 1 KiB; %d messages per measurement, %d rounds%n",
                        PacketCodec.encodedSize(packet), messages, rounds);
                codecAlone(system, new Object[] {binary, cbor, batch, cborBatch}, messages, rounds);
                // warm both paths up before measuring
                run(system, counter, binary, messages / 4);
                run(system, counter, cbor, messages / 4);
                run(system, counter, batch, messages / BATCH / 4 / ACK_EVERY * ACK_EVERY + ACK_EVERY);
                run(system, counter, cborBatch, messages / BATCH / 4 / ACK_EVERY * ACK_EVERY + ACK_EVERY);
                List<Double> cb = new ArrayList<>();
                List<Double> b = new ArrayList<>();
                List<Double> c = new ArrayList<>();
                List<Double> g = new ArrayList<>();
                long batches = Math.max(ACK_EVERY, messages / BATCH / ACK_EVERY * ACK_EVERY);
                for (int r = 0; r < rounds; r++) {
                    b.add(messages / (run(system, counter, binary, messages) / 1e9));
                    c.add(messages / (run(system, counter, cbor, messages) / 1e9));
                    g.add(batches * BATCH / (run(system, counter, batch, batches) / 1e9));
                    cb.add(batches * BATCH / (run(system, counter, cborBatch, batches) / 1e9));
                    System.out.printf(
                            "round %d: packets/s binary codec %,.0f, Jackson CBOR %,.0f, binary in batches of %d %,.0f,"
                                    + " CBOR in batches of %d %,.0f%n",
                            r + 1, b.get(r), c.get(r), BATCH, g.get(r), BATCH, cb.get(r));
                }
                Spread sb = Spread.of(b);
                Spread sc = Spread.of(c);
                Spread sg = Spread.of(g);
                Spread scb = Spread.of(cb);
                System.out.printf(
                        "packets/s, median [min..max] of %d rounds: binary codec %s, Jackson CBOR %s (ratio of medians %.2f);"
                                + " binary in batches of %d %s (ratio %.2f to CBOR), CBOR in batches of %d %s%n",
                        rounds,
                        sb.format("%,.0f"),
                        sc.format("%,.0f"),
                        sb.median() / sc.median(),
                        BATCH,
                        sg.format("%,.0f"),
                        sg.median() / sc.median(),
                        BATCH,
                        scb.format("%,.0f"));
                System.out.printf(
                        "| batching | binary codec packets/s | Jackson CBOR packets/s | ratio of medians |%n|---|---|---|---|%n"
                                + "| none | %,.0f | %,.0f | %.2f |%n| %d a message | %,.0f | %,.0f | %.2f |%n",
                        sb.median(),
                        sc.median(),
                        sb.median() / sc.median(),
                        BATCH,
                        sg.median(),
                        scb.median(),
                        sg.median() / scb.median());
            } finally {
                system.terminate();
                system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
            }
        } finally {
            rx.getOutputStream().close();
            if (!rx.waitFor(20, TimeUnit.SECONDS)) {
                rx.destroyForcibly();
            }
        }
    }

    /**
     * The serializers alone, in this JVM (no Artery, no actors): encode and decode {@code messages}
     * packets with each, so that the cross-JVM ratios can be read against what the codecs
     * themselves do. Order: binary, CBOR, binary batched, CBOR batched.
     */
    private static void codecAlone(ActorSystem system, Object[] kinds, long messages, int rounds) throws Exception {
        Serialization serialization = SerializationExtension.get(system);
        List<List<Double>> rates = new ArrayList<>();
        for (int k = 0; k < kinds.length; k++) {
            rates.add(new ArrayList<>());
        }
        for (int r = -1; r < rounds; r++) { // round -1 warms up
            for (int k = 0; k < kinds.length; k++) {
                Object m = kinds[k];
                var ser = (SerializerWithStringManifest) serialization.findSerializerFor(m);
                String manifest = ser.manifest(m);
                int perMessage = m instanceof DeviceCommand.FrameBatch || m instanceof CborBatch ? BATCH : 1;
                long n = Math.max(1, messages / perMessage);
                long t0 = System.nanoTime();
                long bytes = 0;
                for (long i = 0; i < n; i++) {
                    byte[] b = ser.toBinary(m);
                    bytes += b.length;
                    if (ser.fromBinary(b, manifest) == null) {
                        throw new IllegalStateException("decoded nothing");
                    }
                }
                long ns = System.nanoTime() - t0;
                if (r >= 0) {
                    rates.get(k).add(n * perMessage / (ns / 1e9));
                }
                if (bytes == 0) {
                    throw new IllegalStateException("encoded nothing");
                }
            }
        }
        Spread b = Spread.of(rates.get(0));
        Spread c = Spread.of(rates.get(1));
        Spread gb = Spread.of(rates.get(2));
        Spread gc = Spread.of(rates.get(3));
        System.out.printf(
                "codec alone in one JVM (encode + decode, no Artery), packets/s, median [min..max] of %d rounds:%n"
                        + "| batching | binary codec | Jackson CBOR | ratio of medians |%n|---|---|---|---|%n| none | %s | %s | %.2f |%n"
                        + "| %d a message | %s | %s | %.2f |%n",
                rounds,
                b.format("%,.0f"),
                c.format("%,.0f"),
                b.median() / c.median(),
                BATCH,
                gb.format("%,.0f"),
                gc.format("%,.0f"),
                gb.median() / gc.median());
    }

    /** Nanoseconds to get {@code n} messages (a multiple of the ack interval) acknowledged. */
    private static long run(ActorSystem system, ActorRef counter, Object message, long n) throws Exception {
        if (n % ACK_EVERY != 0) {
            throw new IllegalArgumentException("message counts are multiples of " + ACK_EVERY);
        }
        CompletableFuture<Long> done = new CompletableFuture<>();
        system.actorOf(Props.create(Sender.class, () -> new Sender(counter, message, n, done)));
        return done.get(10, TimeUnit.MINUTES);
    }
}
