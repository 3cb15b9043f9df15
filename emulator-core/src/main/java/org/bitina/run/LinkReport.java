package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One link direction in one phase.
 *
 * @param job           the job whose phase it is, or {@code shared}: a world's mix (T1)
 * @param mode          the job's mode, or the shared world ({@link LinkScope})
 * @param lost          packets lost on it for any reason (down, MTU, random loss, queue full)
 * @param maxQueueBytes the most bytes that waited behind the packet on the wire at once (T3)
 * @param queueDrops    packets dropped because its egress buffer was full (a part of {@code lost})
 * @param queue         its queue's depth over modelled time, on the busiest finite-buffer ports of the phase
 *                      ({@link LinkQueue}); absent elsewhere
 * @param ecnMarks      packets ECN-marked as they joined its queue, where {@code ecn-threshold} is set (T3)
 */
public record LinkReport(
        String job,
        LinkScope mode,
        String from,
        String to,
        long packets,
        long bytes,
        long headerBytes,
        long lost,
        long maxQueueBytes,
        long queueDrops,
        @JsonInclude(JsonInclude.Include.NON_NULL) LinkQueue queue,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long ecnMarks) {
    public LinkReport(
            String job,
            LinkScope mode,
            String from,
            String to,
            long packets,
            long bytes,
            long headerBytes,
            long lost,
            long maxQueueBytes,
            long queueDrops) {
        this(job, mode, from, to, packets, bytes, headerBytes, lost, maxQueueBytes, queueDrops, null, null);
    }

    /** A row read back (a report that crossed a JVM): its mode a world's or a job's, as {@link LinkScope#of} tells. */
    @JsonCreator
    static LinkReport read(
            @JsonProperty("job") String job,
            @JsonProperty("mode") String mode,
            @JsonProperty("from") String from,
            @JsonProperty("to") String to,
            @JsonProperty("packets") long packets,
            @JsonProperty("bytes") long bytes,
            @JsonProperty("headerBytes") long headerBytes,
            @JsonProperty("lost") long lost,
            @JsonProperty("maxQueueBytes") long maxQueueBytes,
            @JsonProperty("queueDrops") long queueDrops,
            @JsonProperty("queue") LinkQueue queue,
            @JsonProperty("ecnMarks") Long ecnMarks) {
        return new LinkReport(
                job,
                LinkScope.of(job, mode),
                from,
                to,
                packets,
                bytes,
                headerBytes,
                lost,
                maxQueueBytes,
                queueDrops,
                queue,
                ecnMarks);
    }

    LinkReport withQueue(LinkQueue q) {
        return new LinkReport(
                job, mode, from, to, packets, bytes, headerBytes, lost, maxQueueBytes, queueDrops, q, ecnMarks);
    }
}
