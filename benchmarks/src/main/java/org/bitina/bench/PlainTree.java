package org.bitina.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;

/**
 * The limit the INA data plane is measured against (docs/scale.md, P1): plain
 * Pekko typed actors, one per node of the members' in-tree toward the root (the routing's
 * paths, as bitina's contributions take them), moving byte arrays of bitina's packet size.
 * Up: a node sends one packet to its parent once one per child arrived for a sequence
 * number; down: the root sends each child a copy, every node copies to its children. Each
 * worker keeps {@code window} chunks in flight. No arithmetic, no bitmaps, no clock: only
 * the actors, the messages and one fresh array per hop.
 */
final class PlainTree {
    private PlainTree() {}

    sealed interface Msg {}

    record Packet(long seq, boolean up, byte[] data) implements Msg {}

    record Wire(ActorRef<Msg> parent, List<ActorRef<Msg>> children) implements Msg {}

    enum Start implements Msg {
        INSTANCE
    }

    /** One run's figures: packet-hops, wall and process CPU nanoseconds. */
    record Result(long hops, long wallNanos, long cpuNanos) {}

    static final class Node extends AbstractBehavior<Msg> {
        private final boolean worker;
        private final int chunks;
        private final int window;
        private final int size;
        private final CountDownLatch done;
        private final LongAdder hops;
        private ActorRef<Msg> parent;
        private List<ActorRef<Msg>> children = List.of();
        private final Map<Long, Integer> arrived = new HashMap<>();
        private long next;
        private long received;

        private Node(
                ActorContext<Msg> ctx,
                boolean worker,
                int chunks,
                int window,
                int size,
                CountDownLatch done,
                LongAdder hops) {
            super(ctx);
            this.worker = worker;
            this.chunks = chunks;
            this.window = window;
            this.size = size;
            this.done = done;
            this.hops = hops;
        }

        static Behavior<Msg> create(
                boolean worker, int chunks, int window, int size, CountDownLatch done, LongAdder hops) {
            return Behaviors.setup(ctx -> new Node(ctx, worker, chunks, window, size, done, hops));
        }

        @Override
        public Receive<Msg> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Wire.class, this::onWire)
                    .onMessage(Start.class, s -> onStart())
                    .onMessage(Packet.class, this::onPacket)
                    .build();
        }

        private Behavior<Msg> onWire(Wire w) {
            parent = w.parent();
            children = w.children();
            return this;
        }

        private Behavior<Msg> onStart() {
            while (next < Math.min(window, chunks)) {
                send(parent, next++, true, null);
            }
            return this;
        }

        private void send(ActorRef<Msg> to, long seq, boolean up, byte[] from) {
            byte[] data = new byte[size];
            if (from != null) {
                System.arraycopy(from, 0, data, 0, size);
            }
            to.tell(new Packet(seq, up, data));
        }

        private Behavior<Msg> onPacket(Packet p) {
            hops.increment();
            if (worker) {
                received++;
                if (next < chunks) {
                    send(parent, next++, true, null);
                }
                if (received == chunks) {
                    done.countDown();
                }
            } else if (p.up()) {
                int n = arrived.merge(p.seq(), 1, Integer::sum);
                if (n == children.size()) {
                    arrived.remove(p.seq());
                    if (parent == null) {
                        children.forEach(c -> send(c, p.seq(), false, p.data()));
                    } else {
                        send(parent, p.seq(), true, p.data());
                    }
                }
            } else {
                children.forEach(c -> send(c, p.seq(), false, p.data()));
            }
            return this;
        }
    }

    /** Runs the tree of {@code members}' paths to {@code root} once: every worker gets every chunk back. */
    static Result run(Topology t, List<String> members, String root, int chunks, int window, int packetBytes)
            throws Exception {
        Routing routing = Routing.compute(t);
        Map<String, String> up = new LinkedHashMap<>();
        Map<String, List<String>> below = new LinkedHashMap<>();
        for (String m : members) {
            List<String> path = routing.path(m, root);
            for (int i = 1; i < path.size(); i++) {
                if (up.putIfAbsent(path.get(i - 1), path.get(i)) == null) {
                    below.computeIfAbsent(path.get(i), k -> new ArrayList<>()).add(path.get(i - 1));
                }
            }
        }
        CountDownLatch done = new CountDownLatch(members.size());
        LongAdder hops = new LongAdder();
        ActorSystem<Void> system = ActorSystem.create(
                Behaviors.setup(ctx -> {
                    Map<String, ActorRef<Msg>> refs = new LinkedHashMap<>();
                    for (String n : up.keySet()) {
                        refs.put(
                                n,
                                ctx.spawn(
                                        Node.create(members.contains(n), chunks, window, packetBytes, done, hops), n));
                    }
                    refs.put(root, ctx.spawn(Node.create(false, chunks, window, packetBytes, done, hops), root));
                    refs.forEach((n, ref) -> ref.tell(new Wire(
                            up.containsKey(n) ? refs.get(up.get(n)) : null,
                            below.getOrDefault(n, List.of()).stream()
                                    .map(refs::get)
                                    .toList())));
                    members.forEach(m -> refs.get(m).tell(Start.INSTANCE));
                    return Behaviors.empty();
                }),
                "plain-tree");
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        try {
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the plain tree did not finish");
            }
            long wall = System.nanoTime() - t0;
            long cpu = os.getProcessCpuTime() - cpu0;
            return new Result(hops.sum(), wall, cpu);
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
