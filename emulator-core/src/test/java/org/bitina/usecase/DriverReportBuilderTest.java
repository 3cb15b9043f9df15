package org.bitina.usecase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A driver's report is built by name: unset fields are empty, and a copy changes only what it names. */
class DriverReportBuilderTest {
    @Test
    void whatIsNotSetIsEmptyZeroOrFalse() {
        DriverReport r = DriverReport.of("h1", DriverReport.Role.EXPERT).build();
        assertEquals("h1", r.endpoint());
        assertEquals(0, r.chunks() + r.received() + r.verifiedChunks());
        assertEquals(0, r.lastVt());
        assertFalse(r.done());
        assertTrue(r.partialChunks().isEmpty()
                && r.mismatches().isEmpty()
                && r.dropped().isEmpty());
        assertTrue(r.stats().isEmpty() && r.gaveUp().isEmpty());
        assertNull(r.values());
        assertNull(r.unitVt());
    }

    @Test
    void aCopyKeepsEveryFieldButThoseItSets() {
        long[] times = {5, -1};
        DriverReport r = DriverReport.of("w1", DriverReport.Role.WORKER)
                .chunks(2)
                .received(1)
                .partialChunks(List.of(new DriverReport.PartialChunk(1, List.of("w3"))))
                .mismatches(List.of("chunk 0: wrong"))
                .lastVt(99)
                .verifiedChunks(1)
                .done(true)
                .dropped(List.of("token 4"))
                .stats(Map.of("acks", 3L))
                .values(new DriverReport.ValueChecks(true, false, List.of(), List.of()))
                .unitVt(times)
                .gaveUp(List.of("chunk 1: no result after 16 sends"))
                .build();
        assertEquals(r, r.toBuilder().build());
        DriverReport fewer =
                r.toBuilder().mismatches(List.of()).verifiedChunks(2).build();
        assertEquals(List.of(), fewer.mismatches());
        assertEquals(2, fewer.verifiedChunks());
        assertEquals(r.gaveUp(), fewer.gaveUp(), "a reduce-scatter shard's copy keeps what its worker gave up on");
        assertEquals(r.dropped(), fewer.dropped());
        assertSame(times, fewer.unitVt());
        assertEquals(r.partialChunks(), fewer.partialChunks());
    }
}
