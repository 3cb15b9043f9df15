package org.bitina.usecase;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A kind's random small job for the chaos suite ({@code chaos.ChaosPlans}: never silently wrong,
 * never hung): the lines of its {@code jobs[]} entry after name, kind and tenant, drawn from the
 * suite's generator in a fixed order, so that one seed always gives the same text.
 */
@FunctionalInterface
public interface ChaosJob {
    /**
     * @param hosts the topology's hosts, {@code h1} first
     * @param top   its first switch (the star's centre, or the first spine)
     * @param star  the topology is one switch with every host on it
     */
    String lines(SplittableRandom r, List<String> hosts, String top, boolean star);

    /** One of the options, drawn from {@code r}. */
    static String pick(SplittableRandom r, String... options) {
        return options[r.nextInt(options.length)];
    }

    /** Who holds which bit: the members (default), every host, or shuffled explicit positions with gaps. */
    static String bitSpace(SplittableRandom r, List<String> hosts) {
        switch (r.nextInt(3)) {
            case 0:
                return "";
            case 1:
                return "  bit-space = hosts\n";
            default:
                List<Integer> positions = new ArrayList<>();
                for (int p = 1; p <= hosts.size() + 3; p++) {
                    positions.add(p);
                }
                List<String> given = new ArrayList<>();
                for (String h : hosts) {
                    given.add(h + " = " + positions.remove(r.nextInt(positions.size())));
                }
                return "  bit-space { " + String.join(", ", given) + " }\n";
        }
    }
}
