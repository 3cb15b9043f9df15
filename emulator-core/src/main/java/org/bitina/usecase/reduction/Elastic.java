package org.bitina.usecase.reduction;

import com.typesafe.config.ConfigList;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bitina.job.WireJobs;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.HostLists;
import org.bitina.scenario.JobHeader;
import org.bitina.topology.Topology;

/**
 * Elastic membership (A8; seed 000: membership may change between iterations): a job runs
 * {@code iterations} times, and its members change between them as {@code changes} say. Bit
 * positions stay as they are: the job's bit space holds every host that is ever a member, and
 * each iteration's A-BMs cover only its own members (a position is never reused, so a
 * straggling packet of an earlier iteration can never be read as another host's).
 *
 * @param iterations how many times the job runs (1: not elastic)
 * @param changes    membership changes, by iteration
 */
public record Elastic(int iterations, List<Change> changes) {
    public static final Elastic ONCE = new Elastic(1, List.of());

    /**
     * At iteration {@code at}: {@code leave} are no longer members, {@code join} become members;
     * {@code fail} stop answering during it (silent workers: partial results without them) and
     * are no longer members after it.
     */
    public record Change(int at, List<String> leave, List<String> join, List<String> fail) {
        public Change {
            leave = List.copyOf(leave);
            join = List.copyOf(join);
            fail = List.copyOf(fail);
        }
    }

    /** One iteration: its members, who is silent in it, and who left or joined since the one before. */
    public record Iteration(
            int index, List<String> members, Set<String> silent, List<String> left, List<String> joined) {}

    public Elastic {
        changes = List.copyOf(changes);
    }

    public boolean elastic() {
        return iterations > 1 || !changes.isEmpty();
    }

    /** An elastic job's iterations run as job ids {@code id + 10000 (i - 1)} on the wire (A8): its own id stays below. */
    public void checkId(ConfigReader c, JobHeader header) {
        if (elastic() && header != null && header.id() > WireJobs.MAX_ELASTIC_JOB_ID) {
            c.problem(
                    "id",
                    "an elastic job's id is at most " + WireJobs.MAX_ELASTIC_JOB_ID + ": iteration i runs as id + "
                            + WireJobs.ITERATION_STRIDE + " (i - 1) on the wire");
        }
    }

    /**
     * The iterations from the initial members; a problem (a host that leaves without being a
     * member, joins twice, or fewer than two members left) is thrown as an
     * IllegalArgumentException naming the iteration, for the reader to put at its line.
     */
    public List<Iteration> iterations(List<String> initial) {
        List<Iteration> out = new ArrayList<>();
        Set<String> members = new LinkedHashSet<>(initial);
        Set<String> failedBefore = new LinkedHashSet<>();
        for (int i = 1; i <= iterations; i++) {
            List<String> left = new ArrayList<>(failedBefore);
            members.removeAll(failedBefore);
            failedBefore.clear();
            List<String> joined = new ArrayList<>();
            Set<String> silent = new LinkedHashSet<>();
            for (Change c : changes) {
                if (c.at() != i) {
                    continue;
                }
                for (String h : c.leave()) {
                    if (!members.remove(h)) {
                        throw new IllegalArgumentException(
                                "iteration " + i + ": " + h + " leaves but is not a member then");
                    }
                    left.add(h);
                }
                for (String h : c.join()) {
                    if (!members.add(h)) {
                        throw new IllegalArgumentException(
                                "iteration " + i + ": " + h + " joins but is a member already");
                    }
                    joined.add(h);
                }
                for (String h : c.fail()) {
                    if (!members.contains(h)) {
                        throw new IllegalArgumentException(
                                "iteration " + i + ": " + h + " fails but is not a member then");
                    }
                    silent.add(h);
                    failedBefore.add(h);
                }
            }
            if (members.size() - silent.size() < 1 || members.size() < 2) {
                throw new IllegalArgumentException(
                        "iteration " + i + " would have " + members.size() + " members; an AllReduce needs two");
            }
            out.add(new Iteration(i, List.copyOf(members), Set.copyOf(silent), List.copyOf(left), List.copyOf(joined)));
        }
        return out;
    }

    /** Every host that is a member in some iteration, initial members first: the bit space's endpoints. */
    public List<String> everMembers(List<String> initial) {
        Set<String> all = new LinkedHashSet<>(initial);
        changes.forEach(c -> all.addAll(c.join()));
        return List.copyOf(all);
    }

    /**
     * {@code iterations = N} and {@code membership = [{ at-iteration = 3, leave = [h4] }, { at-iteration = 5,
     * join = [h9] }, { at-iteration = 2, fail = [h3] }]} (A8); null with problems recorded.
     */
    public static Elastic read(ConfigReader c, Topology topology, List<String> members) {
        int iterations = c.intIn("iterations", 1, 99, 1);
        List<Change> changes = new ArrayList<>();
        ConfigList list = c.has("membership") ? c.list("membership") : null;
        boolean ok = !c.has("membership") || list != null;
        for (int i = 0; list != null && i < list.size(); i++) {
            ConfigReader m =
                    c.objectOf(list.get(i), c.label("membership[" + i + "]"), "{ at-iteration = 2, leave = [h4] }");
            if (m == null) {
                ok = false;
                continue;
            }
            m.checkKeys(ArrayKeys.MEMBERSHIP, "a membership change");
            Integer at = m.requiredInt("at-iteration", 1, iterations);
            List<String> leave =
                    m.has("leave") ? HostLists.names(m, "leave", topology, "a host that leaves") : List.of();
            List<String> join = m.has("join") ? HostLists.names(m, "join", topology, "a host that joins") : List.of();
            List<String> fail = m.has("fail") ? HostLists.names(m, "fail", topology, "a host that fails") : List.of();
            if (at == null || leave == null || join == null || fail == null) {
                ok = false;
                continue;
            }
            if (at == 1 && !(leave.isEmpty() && join.isEmpty())) {
                m.problem("at-iteration", "iteration 1 runs the job's members; leave and join from iteration 2 on");
                ok = false;
                continue;
            }
            for (String h : join) {
                if (topology != null && (!topology.has(h) || !topology.node(h).isHost())) {
                    m.problem("join", "'" + h + "' joins but is not a host of the topology");
                    ok = false;
                }
            }
            changes.add(new Change(at, leave, join, fail));
        }
        if (!ok) {
            return null;
        }
        Elastic e = new Elastic(iterations, changes);
        if (members != null && e.elastic()) {
            try {
                e.iterations(members);
            } catch (IllegalArgumentException bad) {
                c.problem("membership", bad.getMessage());
                return null;
            }
        }
        return e;
    }
}
