package org.bitina.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhaseRunnerFormatTest {
    @Test
    void anUnappliedFaultAt133UsIsNamedSoNotAsZeroMs() {
        assertEquals("133 us", PhaseRunner.modelled(Duration.ofNanos(133_000)));
        assertEquals("1500 ns", PhaseRunner.modelled(Duration.ofNanos(1_500)));
        assertEquals("60000 ms", PhaseRunner.modelled(Duration.ofSeconds(60)));
        assertEquals("0 ms", PhaseRunner.modelled(Duration.ZERO));
    }
}
