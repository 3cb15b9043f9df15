package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class EntryLivesProperties {

    /** The steps equal a count taken the slow way: +1 at each start, -1 at each end, summed per instant in time order. */
    @Property(tries = 200)
    void stepsCountTheEntriesLiveAtEachInstant(
            @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 50) Integer> starts,
            @ForAll @Size(max = 60) List<@IntRange(min = 0, max = 20) Integer> lengths,
            @ForAll @Size(max = 5) List<@IntRange(min = 0, max = 80) Integer> stillLive) {
        EntryLives lives = new EntryLives();
        JobKey job = new JobKey(1, 1);
        TreeMap<Long, Integer> oracle = new TreeMap<>();
        int n = Math.min(starts.size(), lengths.size());
        for (int i = 0; i < n; i++) {
            long from = starts.get(i);
            long at = from + lengths.get(i);
            lives.ended(i % 2 == 0 ? job : new JobKey(1, 2), from, at);
            if (i % 2 == 0) {
                oracle.merge(from, 1, Integer::sum);
                oracle.merge(Math.max(from + 1, at), -1, Integer::sum);
            }
        }
        List<Long> live = new ArrayList<>();
        stillLive.forEach(v -> {
            live.add((long) v);
            oracle.merge((long) v, 1, Integer::sum);
        });
        List<long[]> expected = new ArrayList<>();
        long count = 0;
        for (Map.Entry<Long, Integer> e : oracle.entrySet()) {
            if (e.getValue() != 0) {
                count += e.getValue();
                expected.add(new long[] {e.getKey(), count});
            }
        }
        List<long[]> got = lives.steps(List.of(job), live);
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(expected.get(i)[0], got.get(i)[0]);
            assertEquals(expected.get(i)[1], got.get(i)[1]);
        }
    }
}
