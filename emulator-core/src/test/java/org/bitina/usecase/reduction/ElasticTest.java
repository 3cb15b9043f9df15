package org.bitina.usecase.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A8's membership arithmetic, alone. */
class ElasticTest {
    private static final List<String> FOUR = List.of("a", "b", "c", "d");

    @Test
    void leaveJoinAndFailApplyAtTheirIterationAndAFailedMemberIsGoneAfterIt() {
        Elastic e = new Elastic(
                4,
                List.of(
                        new Elastic.Change(2, List.of(), List.of(), List.of("b")),
                        new Elastic.Change(3, List.of("d"), List.of("e"), List.of())));
        List<Elastic.Iteration> its = e.iterations(FOUR);
        assertEquals(
                List.of(FOUR, FOUR, List.of("a", "c", "e"), List.of("a", "c", "e")),
                its.stream().map(Elastic.Iteration::members).toList());
        assertEquals(
                List.of(Set.of(), Set.of("b"), Set.of(), Set.of()),
                its.stream().map(Elastic.Iteration::silent).toList());
        assertEquals(
                List.of("b", "d"),
                its.get(2).left(),
                "the failed member leaves after its iteration, beside who leaves then");
        assertEquals(List.of("e"), its.get(2).joined());
        assertEquals(
                List.of("a", "b", "c", "d", "e"), e.everMembers(FOUR), "every host that is ever a member holds a bit");
    }

    @Test
    void impossibleChangesNameTheirIteration() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new Elastic(3, List.of(new Elastic.Change(2, List.of("x"), List.of(), List.of())))
                                .iterations(FOUR))
                .getMessage()
                .startsWith("iteration 2: x leaves but is not a member then"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new Elastic(3, List.of(new Elastic.Change(3, List.of(), List.of("a"), List.of())))
                                .iterations(FOUR))
                .getMessage()
                .startsWith("iteration 3: a joins but is a member already"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new Elastic(
                                        2, List.of(new Elastic.Change(2, List.of("a", "b", "c"), List.of(), List.of())))
                                .iterations(FOUR))
                .getMessage()
                .startsWith("iteration 2 would have 1 members"));
    }
}
