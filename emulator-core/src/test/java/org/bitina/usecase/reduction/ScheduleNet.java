package org.bitina.usecase.reduction;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.bitina.protocol.Frame;
import org.bitina.usecase.EndpointDriver;
import org.bitina.wire.Flags;
import org.bitina.wire.PacketType;

/**
 * The members of a host baseline on a network of one latency: frames are delivered in
 * modelled-time order, a seeded share of them lost or duplicated, and every member's timer
 * fires at its deadline. What the schedules' tests run on, without actors.
 */
final class ScheduleNet {
    static final long LATENCY = 1_000;

    final Map<String, ScheduleWorker> workers = new LinkedHashMap<>();
    final Map<String, Long> dataSent = new LinkedHashMap<>();
    /** Per member, data packets sent and not yet acknowledged to it, now and at most (meaningful without loss). */
    final Map<String, Long> inFlight = new LinkedHashMap<>();

    final Map<String, Long> mostInFlight = new LinkedHashMap<>();
    long dataFrames;
    long ackFrames;
    long lost;
    long duplicated;
    long now;
    /** Every data frame as its member sent it, in the order sent. */
    final List<Frame> sent = new java.util.ArrayList<>();
    /** Whether the network ECN-marks every data packet (a switch queue past kmax all the way). */
    boolean markAll;

    private final double loss;
    private final double duplication;
    private final SplittableRandom random;
    private final PriorityQueue<long[]> order =
            new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final Map<Long, Frame> frames = new LinkedHashMap<>();
    private long seq;

    ScheduleNet(AllReducePlan plan, double loss, double duplication, long seed) {
        this(plan, HostBaselines.schedule(plan), loss, duplication, seed);
    }

    ScheduleNet(AllReducePlan plan, HostSchedule schedule, double loss, double duplication, long seed) {
        this.loss = loss;
        this.duplication = duplication;
        this.random = new SplittableRandom(seed);
        plan.members().forEach(m -> {
            workers.put(m, new ScheduleWorker(plan, m, new Verifier(), null, schedule));
            dataSent.put(m, 0L);
        });
    }

    private void put(String from, List<EndpointDriver.Out> outs) {
        for (EndpointDriver.Out o : outs) {
            Frame f = o.frame();
            boolean data = f.packet().header().type() == PacketType.UNICAST;
            if (data) {
                sent.add(f);
                if (markAll) {
                    f = new Frame(f.packet().flagged(Flags.CE), f.destination(), f.vt());
                }
                dataFrames++;
                dataSent.merge(from, 1L, Long::sum);
                long f1 = inFlight.merge(from, 1L, Long::sum);
                mostInFlight.merge(from, f1, Math::max);
            } else {
                ackFrames++;
            }
            if (random.nextDouble() < loss) {
                lost++;
                continue;
            }
            int copies = 1;
            if (random.nextDouble() < duplication) {
                duplicated++;
                copies = 2;
            }
            for (int i = 0; i < copies; i++) {
                long at = Math.max(now, f.vt()) + LATENCY;
                long id = seq++;
                frames.put(id, new Frame(f.packet(), f.destination(), at));
                order.add(new long[] {at, id});
            }
        }
    }

    /** Marks every data packet from now on. */
    ScheduleNet marking() {
        markAll = true;
        return this;
    }

    /** Runs until no frame is on the way and no timer is left, or modelled {@code limit} passes. */
    ScheduleNet run(long limit) {
        workers.forEach((m, w) -> put(m, w.start(0)));
        while (now < limit) {
            long timer = Long.MAX_VALUE;
            for (ScheduleWorker w : workers.values()) {
                timer = Math.min(timer, w.nextDeadline());
            }
            long next = order.isEmpty() ? Long.MAX_VALUE : order.peek()[0];
            if (next == Long.MAX_VALUE && timer == Long.MAX_VALUE) {
                break;
            }
            if (next <= timer) {
                long[] e = order.poll();
                now = e[0];
                Frame f = frames.remove(e[1]);
                if (f.packet().header().type() == PacketType.ACK) {
                    inFlight.merge(f.destination(), -1L, Long::sum);
                }
                put(f.destination(), workers.get(f.destination()).onDeliver(f, now));
            } else {
                now = timer;
                for (Map.Entry<String, ScheduleWorker> w : workers.entrySet()) {
                    if (w.getValue().nextDeadline() <= now) {
                        put(w.getKey(), w.getValue().onTimer(now));
                    }
                }
            }
        }
        return this;
    }

    long stat(String name) {
        return workers.values().stream()
                .mapToLong(w -> w.report().stats().getOrDefault(name, 0L))
                .sum();
    }
}
