package org.bitina.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitina.chaos.ChaosPlans;
import org.bitina.run.ChaosCheck;
import org.bitina.run.Report;
import org.bitina.run.RunProgress;
import org.bitina.run.RunSession;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;

/**
 * The chaos suite at scale: seeds {@code from .. from+N-1} (or the one {@code --seed}), each a
 * random fault plan over a small topology (see {@link ChaosPlans}), all on one ActorSystem;
 * prints every violation with its seed, the outcomes counted, and exits 1 if any seed broke
 * an invariant. {@code --seed S} prints that seed's scenario and report summary to replay it.
 *
 * <pre>./bench chaos --seeds 2000 [--from 1] | --seed S</pre>
 */
public final class ChaosBench {
    private ChaosBench() {}

    @picocli.CommandLine.Command(
            name = "./bench chaos",
            mixinStandardHelpOptions = true,
            description = "Random fault plans, one a seed: every invariant kept, or the seed named.")
    static final class Options {
        @picocli.CommandLine.Option(
                names = "--seeds",
                paramLabel = "N",
                description = "how many seeds (default ${DEFAULT-VALUE})")
        long seeds = 2000;

        @picocli.CommandLine.Option(
                names = "--from",
                paramLabel = "S",
                description = "the first seed (default ${DEFAULT-VALUE})")
        long from = 1;

        @picocli.CommandLine.Option(
                names = "--seed",
                paramLabel = "S",
                description = "replay this seed alone, printing its scenario")
        Long one;

        @picocli.CommandLine.Option(
                names = "--shared",
                description = "shared-fabric plans instead: two tenants' jobs at once, a tight pool, small"
                        + " buffers, loss, background traffic (ChaosPlans.generateShared)")
        boolean shared;
    }

    public static void main(String[] args) throws Exception {
        BenchArgs.bindLogging();
        Options o = BenchArgs.parse(new Options(), args);
        long from = o.from;
        long seeds = o.seeds;
        Long one = o.one;
        if (seeds < 1) {
            System.err.println("--seeds must be at least 1");
            System.exit(2);
        }
        if (one != null) {
            from = one;
            seeds = 1;
        }
        Path dir = Files.createTempDirectory("bitina-chaos");
        Map<String, Integer> outcomes = new TreeMap<>();
        int violated = 0;
        long start = System.nanoTime();
        try (RunSession session = new RunSession(Duration.ofMinutes(5))) {
            for (long seed = from; seed < from + seeds; seed++) {
                ChaosPlans.Plan plan = o.shared ? ChaosPlans.generateShared(seed) : ChaosPlans.generate(seed);
                Path file = dir.resolve("chaos-" + seed + ".conf");
                Files.writeString(file, plan.text());
                Scenario scenario = ScenarioLoader.load(file);
                long t0 = System.nanoTime();
                Report r = session.run(scenario, new RunProgress());
                long ms = (System.nanoTime() - t0) / 1_000_000;
                List<String> v = new ArrayList<>(ChaosCheck.violations(plan, scenario, r));
                if (ms > 30_000) {
                    v.add("took " + ms + " ms of wall time");
                }
                for (Report.JobReport j : r.jobs()) {
                    outcomes.merge(j.kind() + " " + j.outcome().status(), 1, Integer::sum);
                }
                if (one != null) {
                    System.out.println(plan.text());
                    r.jobs()
                            .forEach(j -> System.out.printf(
                                    "%s %s: %s verified=%s missing=%s partial=%d unfinished=%s note=%s%n",
                                    j.name(),
                                    j.mode(),
                                    j.outcome().status(),
                                    j.outcome().verified(),
                                    j.outcome().missing(),
                                    j.problems().partialChunks().size(),
                                    j.problems().unfinished(),
                                    j.outcome().note()));
                }
                if (!v.isEmpty()) {
                    violated++;
                    System.out.println("seed " + seed + ": " + v);
                }
                if ((seed - from + 1) % 200 == 0) {
                    System.err.printf(
                            "%d seeds, %d violations, %.0f s%n",
                            seed - from + 1, violated, (System.nanoTime() - start) / 1e9);
                }
            }
        }
        System.out.printf(
                "%d seeds (%d..%d) in %.0f s: %d violations; outcomes %s%n",
                seeds, from, from + seeds - 1, (System.nanoTime() - start) / 1e9, violated, outcomes);
        System.exit(violated == 0 ? 0 : 1);
    }
}
