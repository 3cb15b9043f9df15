package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitina.job.Mode;
import org.junit.jupiter.api.Test;

/** {@code --trace-filter}: its syntax, what it keeps, and every input it refuses. */
class TraceFilterTest {
    private static TraceEvent event(String node, String job, String mode, long seq, String event, String dir) {
        return new TraceEvent(
                node, job, Mode.of(mode), seq, TraceEvent.Kind.of(event), dir, "[1100]", List.of(), 0, null);
    }

    private static TraceFilter parse(String... options) {
        return TraceFilter.parse(List.of(options));
    }

    @Test
    void noFilterKeepsEveryEvent() {
        assertTrue(TraceFilter.parse(List.of()).isAll());
        assertTrue(TraceFilter.parse(null).test(event("s1", "fig1", "ring", 9, "drop", "agg")));
    }

    @Test
    void everyClauseMustHoldAndAnyValueOfAClauseDoes() {
        TraceFilter f = parse("job=fig1;mode=ina,ring", "event=replicate,drop");
        assertTrue(f.test(event("s1", "fig1", "ina", 0, "replicate", "mcast")));
        assertTrue(f.test(event("s1", "fig1", "ring", 0, "drop", "agg")));
        assertFalse(f.test(event("s1", "fig1", "ps", 0, "drop", "agg")), "mode ps is not named");
        assertFalse(f.test(event("s1", "fig2", "ina", 0, "drop", "agg")), "job fig2 is not named");
        assertFalse(f.test(event("s1", "fig1", "ina", 0, "forward", "agg")), "forward is not named");
    }

    @Test
    void seqTakesNumbersAndInclusiveRanges() {
        TraceFilter f = parse("seq=0..2,7");
        for (long s : new long[] {0, 1, 2, 7}) {
            assertTrue(f.test(event("s1", "j", "ina", s, "send", "agg")), "seq " + s);
        }
        for (long s : new long[] {3, 6, 8}) {
            assertFalse(f.test(event("s1", "j", "ina", s, "send", "agg")), "seq " + s);
        }
    }

    @Test
    void aNodeNameEndingInAStarMatchesItsPrefixAndDirNamesADirection() {
        TraceFilter f = parse("node=leaf-*,core-1", "dir=mcast");
        assertTrue(f.test(event("leaf-3", "j", "ina", 0, "deliver", "mcast")));
        assertTrue(f.test(event("core-1", "j", "ina", 0, "deliver", "mcast")));
        assertFalse(f.test(event("core-10", "j", "ina", 0, "deliver", "mcast")), "core-1 names one node, not a prefix");
        assertFalse(f.test(event("leaf-3", "j", "ina", 0, "deliver", "agg")));
    }

    @Test
    void itPrintsAsTheOptionSaysIt() {
        assertEquals(
                "node=B;event=replicate;seq=1..2",
                parse("node=B; event=replicate", "seq=1..2").toString());
        assertEquals("", TraceFilter.ALL.toString());
    }

    @Test
    void badClausesAreRefusedNamingWhatIsWrong() {
        assertMessage("unknown key 'nodes'", "nodes=s1");
        assertMessage("is not KEY=VALUE", "s1");
        assertMessage("unknown event 'replicated'", "event=replicated");
        assertMessage("dir is agg or mcast", "dir=up");
        assertMessage("empty value", "job=fig1,");
        assertMessage("seq takes numbers or ranges", "seq=a..b");
        assertMessage("seq range '5..2' is empty", "seq=5..2");
        assertMessage("given twice", "job=a", "job=b");
        assertMessage("'*' only ends a node name", "job=fig*");
        assertMessage("'*' only ends a node name", "node=*leaf");
    }

    private static void assertMessage(String part, String... options) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(options));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
