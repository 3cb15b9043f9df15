package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.bitina.topology.Link;
import org.junit.jupiter.api.Test;

/** A fault kind's target is the one place that says what it acts on and whether the network applies it. */
class FaultSpecTest {

    private static final Link LINK = new Link("s1", "s2", null);

    private static FaultSpec spec(FaultSpec.Kind kind) {
        return switch (kind.target()) {
            case LINK, LINKS -> new FaultSpec(Duration.ZERO, kind, null, LINK, null, null, 0.1, List.of(), -1);
            case SWITCH, HOST -> new FaultSpec(Duration.ZERO, kind, "n1", null, null, null, 0, List.of(), -1);
            case MEMBER -> new FaultSpec(Duration.ZERO, kind, null, null, null, null, 0, List.of(), 1);
        };
    }

    @Test
    void onlyEndpointFaultsAreLeftToTheDrivers() {
        List<FaultSpec.Kind> atEndpoint = new ArrayList<>();
        for (FaultSpec.Kind k : FaultSpec.Kind.values()) {
            if (!spec(k).inNetwork()) {
                atEndpoint.add(k);
            }
        }
        assertEquals(List.of(FaultSpec.Kind.STRAGGLER, FaultSpec.Kind.SILENT), atEndpoint);
    }

    @Test
    void everyTargetHasAKindAndTheSwitchKindsAreTheSwitchOnes() {
        EnumSet<FaultSpec.Target> used = EnumSet.noneOf(FaultSpec.Target.class);
        for (FaultSpec.Kind k : FaultSpec.Kind.values()) {
            used.add(k.target());
        }
        assertEquals(EnumSet.allOf(FaultSpec.Target.class), used);
        assertEquals(FaultSpec.Target.SWITCH, FaultSpec.Kind.MALICIOUS_SWITCH.target());
        assertEquals(FaultSpec.Target.LINKS, FaultSpec.Kind.LOSS.target(), "loss may cover the whole fabric");
        assertEquals(FaultSpec.Target.LINK, FaultSpec.Kind.DELAY.target());
    }

    @Test
    void aSpecWithoutItsTargetIsRefused() {
        IllegalArgumentException noLink = assertThrows(
                IllegalArgumentException.class,
                () -> new FaultSpec(Duration.ZERO, FaultSpec.Kind.LINK_DOWN, null, null, null, null, 0, List.of(), -1));
        assertTrue(noLink.getMessage().contains("link-down needs link"), noLink.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new FaultSpec(
                        Duration.ZERO, FaultSpec.Kind.SWITCH_CRASH, null, LINK, null, null, 0, List.of(), -1));
        assertThrows(
                IllegalArgumentException.class,
                () -> new FaultSpec(
                        Duration.ZERO, FaultSpec.Kind.MEMBER_LOSS, null, null, null, null, 0, List.of(), -1));
        FaultSpec everyLink =
                new FaultSpec(Duration.ZERO, FaultSpec.Kind.LOSS, null, null, null, null, 0.02, List.of(), -1);
        assertTrue(everyLink.inNetwork());
        assertFalse(spec(FaultSpec.Kind.SILENT).inNetwork());
    }
}
