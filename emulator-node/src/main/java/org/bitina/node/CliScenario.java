package org.bitina.node;

import java.nio.file.Path;
import java.util.List;
import org.bitina.scenario.Overrides;
import org.bitina.scenario.Problem;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioException;
import org.bitina.scenario.ScenarioLoader;

/** How every command loads its scenario: the file with its {@code --set} changes, or every problem on stderr. */
final class CliScenario {
    private CliScenario() {}

    /** The scenario, or null after printing why not (a malformed --set, or the file's problems as FILE:LINE: lines). */
    static Scenario load(Path file, List<String> sets) {
        return load(file, sets, 0);
    }

    /** The same for run {@code draw + 1} of a repeated run: every seed of the file moved to that draw's. */
    static Scenario load(Path file, List<String> sets, int draw) {
        try {
            return ScenarioLoader.load(file, Runtime.getRuntime().maxMemory(), Overrides.parse(sets), draw);
        } catch (IllegalArgumentException e) {
            System.err.println("bitina: " + e.getMessage());
        } catch (ScenarioException e) {
            for (Problem p : e.problems()) {
                System.err.println(p);
            }
        }
        return null;
    }
}
