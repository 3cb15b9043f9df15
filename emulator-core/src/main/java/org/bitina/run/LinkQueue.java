package org.bitina.run;

import java.util.List;

/**
 * An egress queue's depth over modelled time (T3), bounded: the most bytes waiting in each interval
 * of {@code bucketNanos} in which a packet was sent; intervals in which none was are left out (the
 * queue only drained then). Its largest value is the link's {@code maxQueueBytes}.
 *
 * @param depth {start ns of the interval, most bytes waiting in it}, in time order
 */
public record LinkQueue(long bucketNanos, List<long[]> depth) {
    public LinkQueue {
        depth = List.copyOf(depth);
    }
}
