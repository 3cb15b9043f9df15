package org.bitina.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bitina.chaos.ChaosPlans;
import org.bitina.run.Report;
import org.bitina.run.RunComparison;
import org.bitina.run.RunProgress;
import org.bitina.scenario.Clock;
import org.bitina.scenario.Scenario;
import org.bitina.scenario.ScenarioLoader;

/**
 * The virtual clock's determinism contract over every shipped scenario (the cheap ones are
 * also in {@code mvn verify}): each file runs twice (or {@code --runs N} times) on the
 * virtual clock, optionally on several members, and every report must equal the first
 * except for wall time and placement. Exits 1 naming the first difference.
 *
 * <pre>./bench determinism [--runs 2] [--members 1] [FILE ...]   (default: topology-configs/*.conf)</pre>
 */
public final class DeterminismBench {
    private DeterminismBench() {}

    @picocli.CommandLine.Command(
            name = "./bench determinism",
            mixinStandardHelpOptions = true,
            description =
                    "Every file (default: topology-configs/*.conf) several times on the virtual clock: the same report.")
    static final class Options {
        @picocli.CommandLine.Option(
                names = "--runs",
                paramLabel = "N",
                description = "runs per file (default ${DEFAULT-VALUE})")
        int runs = 2;

        @picocli.CommandLine.Option(
                names = "--members",
                paramLabel = "N",
                description = "members of the runs after the first")
        int members = 1;

        @picocli.CommandLine.Option(
                names = "--shared-seeds",
                paramLabel = "N",
                description = "also N generated shared-fabric plans (two tenants at once, a tight pool, small buffers,"
                        + " loss, background traffic: ChaosPlans.generateShared, seeds 1..N)")
        int sharedSeeds;

        @picocli.CommandLine.Parameters(paramLabel = "FILE", arity = "0..*", description = "scenario files")
        List<Path> files = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        BenchArgs.bindLogging();
        Options o = BenchArgs.parse(new Options(), args);
        int runs = o.runs;
        int members = o.members;
        List<Path> files = o.files;
        if (runs < 2 || members < 1) {
            System.err.println("--runs must be at least 2 (a comparison needs two), --members at least 1");
            System.exit(2);
        }
        if (files.isEmpty() && o.sharedSeeds == 0) {
            try (Stream<Path> s = Files.list(Path.of("topology-configs"))) {
                s.filter(p -> p.toString().endsWith(".conf")
                                && !p.getFileName().toString().equals("defaults.conf"))
                        .sorted()
                        .forEach(files::add);
            }
        }
        if (o.sharedSeeds > 0) {
            Path dir = Files.createTempDirectory("bitina-determinism");
            for (long seed = 1; seed <= o.sharedSeeds; seed++) {
                Path f = dir.resolve("shared-" + seed + ".conf");
                Files.writeString(f, ChaosPlans.generateShared(seed).text());
                files.add(f);
            }
        }
        int differing = 0;
        for (Path f : files) {
            Scenario s = ScenarioLoader.load(f).withClock(Clock.VIRTUAL);
            long start = System.nanoTime();
            Report first = Members.run(s, 1, new RunProgress());
            String diff = null;
            for (int i = 1; i < runs && diff == null; i++) {
                diff = RunComparison.firstDifference(first, Members.run(s, members, new RunProgress()));
            }
            System.out.printf(
                    "%-48s %s  (%d runs%s, %.1f s)%n",
                    f,
                    diff == null ? "same" : "DIFFERENT at " + diff,
                    runs,
                    members > 1 ? ", runs after the first on " + members + " members" : "",
                    (System.nanoTime() - start) / 1e9);
            if (diff != null) {
                differing++;
            }
        }
        System.out.println(
                differing == 0 ? "every file gave the same report every run" : differing + " files differed");
        System.exit(differing == 0 ? 0 : 1);
    }
}
