package org.bitina.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.bitina.protocol.TraceEvent;
import org.junit.jupiter.api.Test;

/** Statuses and trace events are written by their lower-case names and read back by them alone. */
class LabelsTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyStatusAndTraceEventIsWrittenByItsNameAndReadBack() throws Exception {
        for (Status s : Status.values()) {
            assertEquals(s, Status.of(s.label()));
            assertEquals("\"" + s.name().toLowerCase(java.util.Locale.ROOT) + "\"", json.writeValueAsString(s));
            assertEquals(s, json.readValue(json.writeValueAsString(s), Status.class));
        }
        for (TraceEvent.Kind k : TraceEvent.Kind.values()) {
            assertEquals(k, TraceEvent.Kind.of(k.label()));
            assertEquals(k, json.readValue("\"" + k.label() + "\"", TraceEvent.Kind.class));
        }
        assertEquals("\"replicate\"", json.writeValueAsString(TraceEvent.Kind.REPLICATE));
    }

    @Test
    void anUnknownNameIsRefusedNamingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Status.of("COMPLETE"));
        assertEquals("unknown status 'COMPLETE' (complete, partial, failed)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.Kind.of("hop"));
    }
}
