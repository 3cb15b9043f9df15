package org.bitina.scenario;

import java.util.List;
import java.util.stream.Collectors;

/** A scenario file that cannot run; lists every problem found, each with file and line. */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<Problem> problems;

    public ScenarioException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
