package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhaseCloseFormatTest {
    @Test
    void anUnappliedFaultAt133UsIsNamedSoNotAsZeroMs() {
        assertEquals("133 us", PhaseClose.modelled(Duration.ofNanos(133_000)));
        assertEquals("1500 ns", PhaseClose.modelled(Duration.ofNanos(1_500)));
        assertEquals("60000 ms", PhaseClose.modelled(Duration.ofSeconds(60)));
        assertEquals("0 ms", PhaseClose.modelled(Duration.ZERO));
    }
}
