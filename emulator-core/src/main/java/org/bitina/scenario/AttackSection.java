package org.bitina.scenario;

import com.typesafe.config.ConfigList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitina.job.JobSpec;
import org.bitina.security.AttackSpec;
import org.bitina.topology.Topology;

/**
 * The {@code attacks} section: what hostile endpoints send, beside the faults. Each attack
 * names its kind, its time, the host it comes from and the job it targets; every
 * problem is reported with its line, as for every section.
 */
final class AttackSection {
    private AttackSection() {}

    /** @param readers the kinds of job: which of them an attack may target ({@link JobReader#attacks()}) */
    static List<AttackSpec> read(
            ConfigReader root,
            Topology topology,
            List<JobSpec> jobs,
            Scenario.Security security,
            List<JobReader> readers) {
        List<AttackSpec> attacks = new ArrayList<>();
        ConfigList list = root.list("attacks");
        if (list == null) {
            return attacks;
        }
        List<String> kinds = Arrays.stream(AttackSpec.Kind.values())
                .map(AttackSpec.Kind::configName)
                .toList();
        for (int i = 0; i < list.size(); i++) {
            ConfigReader a = root.objectOf(
                    list.get(i),
                    root.label("attacks[" + i + "]"),
                    "{ at = 10us, kind = spoof-bits, node = ..., job = ... }");
            if (a == null) {
                continue;
            }
            String known = FaultSection.kindOf(a, kinds);
            a.checkKeys(ScenarioKeys.ATTACK, known, known == null ? "an attack" : "a " + known + " attack");
            int before = a.problems().count();
            String kindName = a.oneOf("kind", kinds, null);
            if (kindName == null && !a.has("kind")) {
                a.problem(a.origin(), "an attack needs kind = " + String.join(" | ", kinds));
            }
            Duration at = a.nonNegativeDuration("at", Duration.ZERO);
            String node = a.requiredName("node", "an attack's node (the attacking host)");
            String jobName = a.requiredName("job", "an attack's job (an allreduce job of this scenario)");
            List<String> as =
                    a.has("as") ? HostLists.names(a, "as", topology, "a host whose bits it claims") : List.of();
            int count = a.intIn("count", 1, 1_000_000, 1000);
            if (a.problems().since(before) || topology == null || kindName == null) {
                continue;
            }
            AttackSpec.Kind kind = AttackSpec.Kind.fromConfig(kindName);
            if (!JobParts.requireHost(a, a.origin("node"), node, "attacking node", topology)) {
                continue;
            }
            boolean multicast = kind == AttackSpec.Kind.SPOOFED_ACK;
            JobReader.Attacks target = multicast ? JobReader.Attacks.ACKNOWLEDGMENTS : JobReader.Attacks.CONTRIBUTIONS;
            List<String> targets = readers.stream()
                    .filter(r -> r.attacks() == target)
                    .map(JobReader::kind)
                    .toList();
            JobSpec job = jobs.stream()
                    .filter(j -> j.name().equals(jobName)
                            && targets.contains(j.common().kind()))
                    .findFirst()
                    .orElse(null);
            if (job == null) {
                a.problem(
                        "job",
                        "a " + kindName + " attack targets " + JobReader.article(targets.get(0))
                                + String.join(" or ", targets) + " job; '" + jobName
                                + "' is none of this scenario's");
                continue;
            }
            if (multicast && node.equals(job.source())) {
                a.problem(
                        "node", node + " is the source of " + jobName + ": a spoofed-ack attack comes from a receiver");
                continue;
            }
            if (!job.common().members().contains(node) && kind != AttackSpec.Kind.FOREIGN_JOB) {
                a.problem(
                        "node",
                        node + " is not a member of job " + jobName + ": a " + kindName
                                + " attack comes from a member");
                continue;
            }
            if ((kind == AttackSpec.Kind.SPOOF_BITS || multicast)
                    && (as == null || as.isEmpty() || !job.common().members().containsAll(as))) {
                a.problem(
                        a.has("as") ? a.origin("as") : a.origin(),
                        kindName + " needs as = [members of " + jobName + "] whose bits it sets");
                continue;
            }
            if (kind == AttackSpec.Kind.NON_MEMBER_BITS
                    && job.common().bitSpace().capacity()
                            <= job.common().members().size()) {
                a.problem(
                        "kind",
                        "non-member-bits needs a host that holds a bit in " + jobName
                                + " without being a member (bit-space = hosts)");
                continue;
            }
            AttackSpec spec = new AttackSpec(kind, at, node, jobName, as == null ? List.of() : as, 1);
            if (kind == AttackSpec.Kind.RATE_FLOOD && security.rate() == null) {
                a.problem(
                        "kind",
                        "rate-flood attacks the rate limit: it needs security { rate-limit { packets-per-second = ..., burst = ... } }");
                continue;
            }
            if (kind == AttackSpec.Kind.FORGED_MAC && !security.mac()) {
                a.problem("kind", "forged-mac attacks the packet tags: it needs security { mac = on }");
                continue;
            }
            attacks.add(new AttackSpec(kind, at, node, jobName, spec.as(), spec.flood() ? count : 1));
        }
        return attacks;
    }
}
