package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.Mode;
import org.junit.jupiter.api.Test;

/** T2: admission at each job's start against what the jobs running then were granted of each switch's pool. */
class PoolLedgerTest {
    /** A host baseline to fall back to: admission carries it, never reads it. */
    private static final Mode RING = Mode.of("ring");

    private static final List<String> SWITCHES = List.of("leaf-1", "spine-1", "leaf-2");

    /** 12 entries everywhere, 20 on spine-1; leaf-2 has no pool (unlimited). */
    private static PoolLedger ledger() {
        return new PoolLedger(s -> switch (s) {
            case "spine-1" -> 20;
            case "leaf-2" -> 0;
            default -> 12;
        });
    }

    @Test
    void aStrictJobThatFitsIsGrantedItsDeclarationOnEverySwitchWithAPool() {
        PoolLedger.Grant g = ledger().admit("a", Set.of(), 8, SWITCHES, false, RING);
        assertTrue(g.admission().admitted());
        assertEquals(Map.of("leaf-1", 8, "spine-1", 8), g.grants(), "leaf-2 has no pool to grant from");
    }

    @Test
    void aStrictJobIsRefusedWhereTheRunningJobsLeaveTooLittle() {
        PoolLedger l = ledger();
        l.admit("a", Set.of(), 8, SWITCHES, false, RING);
        PoolLedger.Grant b = l.admit("b", Set.of(), 8, SWITCHES, false, RING);
        assertFalse(b.admission().admitted());
        assertEquals("leaf-1", b.admission().refusedBy(), "12 - 8 = 4 free there, 20 - 8 = 12 on spine-1");
        assertEquals(4, b.admission().capacity());
        assertEquals(Map.of(), b.grants());
        assertTrue(
                l.admit("c", Set.of(), 4, SWITCHES, false, RING).admission().admitted(),
                "the refused job holds nothing");
    }

    @Test
    void aJobAfterAnotherHasThatJobsGrantsBack() {
        PoolLedger l = ledger();
        l.admit("a", Set.of(), 12, SWITCHES, false, RING);
        assertFalse(
                l.admit("b", Set.of(), 12, SWITCHES, false, RING).admission().admitted());
        assertTrue(
                l.admit("c", Set.of("a"), 12, SWITCHES, false, RING).admission().admitted());
    }

    @Test
    void aBestEffortJobIsAdmittedWithWhatIsFree() {
        PoolLedger l = ledger();
        l.admit("a", Set.of(), 8, SWITCHES, false, RING);
        PoolLedger.Grant b = l.admit("b", Set.of(), 16, SWITCHES, true, RING);
        assertTrue(b.admission().admitted());
        assertEquals(Map.of("leaf-1", 4, "spine-1", 12), b.grants());
        PoolLedger.Grant c = l.admit("c", Set.of(), 16, SWITCHES, true, RING);
        assertEquals(Map.of("leaf-1", 0, "spine-1", 0), c.grants(), "admitted with nothing: every chunk passes on");
        assertFalse(
                l.admit("d", Set.of(), 1, SWITCHES, false, RING).admission().admitted(),
                "a best-effort grant is held like a strict one");
    }
}
