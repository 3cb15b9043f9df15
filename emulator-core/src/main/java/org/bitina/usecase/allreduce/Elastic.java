package org.bitina.usecase.allreduce;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
    public record Iteration(int index, List<String> members, Set<String> silent, List<String> left, List<String> joined) {
    }

    public Elastic {
        changes = List.copyOf(changes);
    }

    public boolean elastic() {
        return iterations > 1 || !changes.isEmpty();
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
                        throw new IllegalArgumentException("iteration " + i + ": " + h + " leaves but is not a member then");
                    }
                    left.add(h);
                }
                for (String h : c.join()) {
                    if (!members.add(h)) {
                        throw new IllegalArgumentException("iteration " + i + ": " + h + " joins but is a member already");
                    }
                    joined.add(h);
                }
                for (String h : c.fail()) {
                    if (!members.contains(h)) {
                        throw new IllegalArgumentException("iteration " + i + ": " + h + " fails but is not a member then");
                    }
                    silent.add(h);
                    failedBefore.add(h);
                }
            }
            if (members.size() - silent.size() < 1 || members.size() < 2) {
                throw new IllegalArgumentException("iteration " + i + " would have " + members.size() + " members; an AllReduce needs two");
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
}
