package org.bitina.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.bitina.bitmap.EndpointSet;
import org.bitina.wire.ElementType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;

/**
 * The aggregation state machine of one node (seed 000 section 2; F2, F4, F5, S3, S5): the
 * one place where the termination test, the reduction, the completion test and the
 * de-duplication live, for every use case and every way a tree is established (A-BM
 * registered by the control plane, C-BM self-installed by a multicast, BIER-INC tree).
 *
 * <ul>
 *   <li>A packet is terminated when node-BM AND P-BM is non-zero; otherwise it is forwarded.</li>
 *   <li>Contributions are reduced per {@link StateKey}; concurrent keys never mix.</li>
 *   <li>The aggregation completes when the OR of held P-BMs equals the node bitmap, and
 *       emits one result whose P-BM is the node bitmap.</li>
 *   <li>A P-BM already held is a duplicate: dropped, never counted twice, never completing
 *       anything early. One that overlaps what is held without being contained would count
 *       some contributions twice and is rejected.</li>
 *   <li>At the deadline (first arrival or install + timeout) a partial result leaves whose
 *       P-BM is exactly what is held.</li>
 *   <li>After an entry emits, a tombstone remembers what left: a later copy of it is a
 *       duplicate; a contribution that was missing is {@link Late} and the caller forwards
 *       it upward untouched, so that it is folded in further up or reported, never lost.</li>
 *   <li>Live entries per job are bounded; past the bound a new entry is refused.</li>
 *   <li>A root keeps each chunk's result ({@link #cacheResult}: the result cache, as SwitchML's
 *       shadow copy) until no member can still ask for it: a contribution of a chunk that has its
 *       result comes back as a {@link Duplicate} carrying that result, so that a worker that
 *       retransmits gets the result again instead of a second sum (L1).</li>
 * </ul>
 *
 * Time is an argument (nanoseconds on any monotonic clock); nothing here blocks or reads a
 * clock.
 */
public final class AggregationTable {

    /** What became of an offered contribution. */
    public sealed interface Outcome permits Forward, Buffered, Complete, Duplicate, Late, Rejected, Refused {}

    /** Not for this node: node-BM AND P-BM is zero, or no state exists for the key. */
    public record Forward() implements Outcome {}

    /** Held; the aggregation still waits for {@code missing}. */
    public record Buffered(EndpointSet held, EndpointSet nodeBitmap) implements Outcome {
        /** node-BM AND NOT held, computed when asked (an offer does not pay for it). */
        public EndpointSet missing() {
            return MissSet.of(nodeBitmap, held);
        }
    }

    /** The contribution completed the aggregation. */
    public record Complete(Emission emission) implements Outcome {}

    /**
     * Already held or already sent upward: never added twice. {@code cached} is the chunk's result
     * when this node keeps it (a root's result cache), for a retransmission to be answered from; else null.
     */
    public record Duplicate(EndpointSet pbm, Emission cached) implements Outcome {
        public Duplicate(EndpointSet pbm) {
            this(pbm, null);
        }
    }

    /** Arrived after its aggregation left without it: forward it upward unchanged. */
    public record Late(EndpointSet pbm, Emission left) implements Outcome {}

    /** Malformed for this node (bits outside the node bitmap, overlap, payload mismatch). */
    public record Rejected(DropReason why, String reason) implements Outcome {
        /** The rejection for {@code why}, its text made from {@code args}. */
        static Rejected of(DropReason why, Object... args) {
            return new Rejected(why, why.text(args));
        }
    }

    /** Over the job's quota of live entries (S5). */
    public record Refused(DropReason why, String reason) implements Outcome {}

    private static final Forward FORWARD = new Forward();

    private final int maxEntriesPerJob;
    private final long tombstoneNanos;
    private final Map<StateKey, Entry> entries = new HashMap<>();
    private final Map<StateKey, Tombstone> tombstones = new LinkedHashMap<>();
    private final Map<JobKey, Integer> entriesPerJob = new HashMap<>();
    /** The result cache: per key the result that left the root, and until when a member may still ask for it. */
    private final Map<StateKey, CachedResult> results = new HashMap<>();

    private record CachedResult(Emission result, long until) {}
    /** What admission control reserved for a job here (S5): its quota instead of the device's default. */
    private final Map<JobKey, Integer> reserved = new HashMap<>();
    /** The jobs that share this switch's pool of entries (T2), with their shares; empty: no pool here. */
    private final Map<JobKey, PoolShare> pooled = new HashMap<>();
    /** Best-effort chunks refused for want of a free entry, and until when: their later contributions pass on too. */
    private final Map<StateKey, Long> passing = new HashMap<>();
    /** Per job, the entries its root folds outside the pool (best-effort chunks that found no free entry). */
    private final Map<JobKey, Integer> outsidePerJob = new HashMap<>();

    private final Map<JobKey, Long> outsideFolds = new HashMap<>();

    private final Deadlines deadlines = new Deadlines(this::isLive);
    private long generation;
    private long bufferedBytes;
    private long peakBufferedBytes;
    private int peakEntries;
    private final EntryLives lives = new EntryLives();

    /**
     * @param maxEntriesPerJob bound on live entries of one job (S5)
     * @param tombstoneNanos   how long what an entry emitted is remembered, to tell late
     *                         contributions from duplicates
     */
    public AggregationTable(int maxEntriesPerJob, long tombstoneNanos) {
        if (maxEntriesPerJob < 1 || tombstoneNanos < 0) {
            throw new IllegalArgumentException("need at least one entry per job and a non-negative tombstone time");
        }
        this.maxEntriesPerJob = maxEntriesPerJob;
        this.tombstoneNanos = tombstoneNanos;
    }

    private static final class Entry {
        final StateKey key;
        final EndpointSet nodeBitmap;
        final long firstArrival;
        final long deadline;
        final long generation;
        final long timeoutNanos;
        /** Folded at a best-effort job's root outside the pool: not one of the pool's entries. */
        boolean outside;

        long firstVt = Long.MIN_VALUE;
        long maxVt = Long.MIN_VALUE;
        EndpointSet held;
        /** H2: in a second stage, the job's endpoints the accumulator holds (null elsewhere). */
        EndpointSet holds;
        /** Some contribution arrived ECN-marked: the OR of their marks, carried into the emission. */
        boolean congested;

        ReductionOp op;
        Payload acc;

        Entry(StateKey key, EndpointSet nodeBitmap, long now, long timeoutNanos, long generation) {
            this.key = key;
            this.timeoutNanos = timeoutNanos;
            this.nodeBitmap = nodeBitmap;
            this.firstArrival = now;
            this.deadline = now + timeoutNanos;
            this.generation = generation;
            this.held = nodeBitmap.andNot(nodeBitmap);
        }
    }

    /** What left, and what came late since: by P-BM, and in a second stage (H2) by the job's endpoints too ({@code passedHolds}). */
    private record Tombstone(Emission emission, EndpointSet passed, EndpointSet passedHolds, long expiresAt) {}

    /**
     * Installs soft state (a C-BM) ahead of the contributions, as a branch node of a
     * multicast does (M2, R2). Returns a {@link Refused} past the job's quota, else null.
     * Installing a key that is live already is a no-op.
     */
    public Refused install(StateKey key, EndpointSet nodeBitmap, long timeoutNanos, long now) {
        return install(key, nodeBitmap, timeoutNanos, now, 0);
    }

    /** As {@link #install(StateKey, EndpointSet, long, long)}, at modelled time {@code vt}. */
    public Refused install(StateKey key, EndpointSet nodeBitmap, long timeoutNanos, long now, long vt) {
        if (entries.containsKey(key)) {
            return null;
        }
        tombstones.remove(key);
        Entry e = open(key, nodeBitmap, timeoutNanos, now);
        if (e == null) {
            return refusal(key);
        }
        e.firstVt = vt;
        e.maxVt = vt;
        return null;
    }

    /** True when a live entry (installed or registered) exists for the key. */
    public boolean has(StateKey key) {
        return entries.containsKey(key);
    }

    /**
     * Offers a contribution.
     *
     * @param registered the node bitmap the control plane registered for this job here (an
     *                   A-BM), or null to use only state installed for the key
     */
    public Outcome offer(StateKey key, EndpointSet registered, Contribution c, long timeoutNanos, long now) {
        Entry e = entries.get(key);
        EndpointSet nodeBitmap = e != null ? e.nodeBitmap : registered;
        if (nodeBitmap == null) {
            Tombstone t = tombstones.get(key);
            if (t == null) {
                return FORWARD;
            }
            nodeBitmap = t.emission.nodeBitmap();
        }
        if (c.pbm().capacity() != nodeBitmap.capacity()) {
            return Rejected.of(DropReason.PBM_SIZE, c.pbm().capacity(), nodeBitmap.capacity());
        }
        // the termination test: AND zero means the packet is not aggregated here
        if (!nodeBitmap.intersects(c.pbm())) {
            return FORWARD;
        }
        if (c.pbm().isEmpty()) {
            return Rejected.of(DropReason.EMPTY_PBM);
        }
        if (!c.pbm().isSubsetOf(nodeBitmap)) {
            return Rejected.of(DropReason.PBM_OUTSIDE_NODE_BITMAP, c.pbm(), nodeBitmap);
        }
        if (e == null) {
            Tombstone t = tombstones.get(key);
            if (t != null) {
                return lateOrDuplicate(key, t, c);
            }
            e = open(key, nodeBitmap, timeoutNanos, now);
            if (e == null) {
                return refusal(key);
            }
        }
        if (c.pbm().isSubsetOf(e.held) && c.holds() != null && e.holds != null) {
            return lateMember(e, c);
        }
        if (c.pbm().isSubsetOf(e.held)) {
            return new Duplicate(c.pbm());
        }
        if (c.pbm().intersects(e.held)) {
            return Rejected.of(DropReason.PBM_OVERLAP, c.pbm(), e.held, c.pbm().and(e.held));
        }
        Rejected mismatch = mismatch(e, c);
        if (mismatch != null) {
            return mismatch;
        }
        reduce(e, c);
        // held is inside the node bitmap (checked above), so equal sizes mean equal sets
        if (e.held.cardinality() == e.nodeBitmap.cardinality()) {
            return new Complete(emit(e, false, now));
        }
        return new Buffered(e.held, e.nodeBitmap);
    }

    /**
     * H2: in a second stage a P-BM bit stands for a partition, so a member of a partition that is
     * held already, arriving late, is told from a duplicate by the job's endpoints it holds: new
     * ones are reduced in (the P-BM, and so completion, stay as they are), held ones are a duplicate.
     */
    private Outcome lateMember(Entry e, Contribution c) {
        if (c.holds().isSubsetOf(e.holds)) {
            return new Duplicate(c.pbm());
        }
        if (c.holds().intersects(e.holds)) {
            return Rejected.of(
                    DropReason.HOLDS_OVERLAP, c.holds(), e.holds, c.holds().and(e.holds));
        }
        Rejected mismatch = mismatch(e, c);
        if (mismatch != null) {
            return mismatch;
        }
        e.maxVt = Math.max(e.maxVt, c.vt());
        e.congested |= c.congested();
        e.op.apply(e.acc, c.payload());
        e.holds = e.holds.or(c.holds());
        return new Buffered(e.held, MissSet.of(e.nodeBitmap, e.held));
    }

    private Outcome lateOrDuplicate(StateKey key, Tombstone t, Contribution c) {
        EndpointSet pbm = c.pbm();
        if (c.holds() != null && t.passedHolds != null && pbm.isSubsetOf(t.passed)) {
            // H2: its partition left already; whether it is news is what it holds
            if (c.holds().isSubsetOf(t.passedHolds)) {
                // a partition root asking again for a result lost on its way down: the cache answers it (L1)
                return new Duplicate(pbm, cachedResult(key));
            }
            if (c.holds().intersects(t.passedHolds)) {
                return Rejected.of(DropReason.LATE_HOLDS_OVERLAP, c.holds(), t.passedHolds);
            }
            tombstones.put(key, new Tombstone(t.emission, t.passed, t.passedHolds.or(c.holds()), t.expiresAt));
            return new Late(pbm, t.emission);
        }
        if (pbm.isSubsetOf(t.passed)) {
            return new Duplicate(pbm, cachedResult(key));
        }
        if (pbm.intersects(t.passed)) {
            return Rejected.of(DropReason.LATE_PBM_OVERLAP, pbm, t.passed);
        }
        EndpointSet holds = t.passedHolds == null || c.holds() == null ? t.passedHolds : t.passedHolds.or(c.holds());
        tombstones.put(key, new Tombstone(t.emission, t.passed.or(pbm), holds, t.expiresAt));
        return new Late(pbm, t.emission);
    }

    /**
     * Keeps {@code result} (what a root sent down for its key, or a better one after a late
     * contribution was folded in) until {@code until}: how long a member may still ask for it.
     */
    public void cacheResult(Emission result, long until) {
        CachedResult was = results.get(result.key());
        results.put(result.key(), new CachedResult(result, was == null ? until : Math.max(until, was.until)));
    }

    /** The cached result of a key, or null when none is kept (never sent, or past its time). */
    public Emission cachedResult(StateKey key) {
        CachedResult c = results.get(key);
        return c == null ? null : c.result;
    }

    /** What this node emitted last for a key (its tombstone), or null: a partition root's aggregate, to send up again. */
    public Emission emitted(StateKey key) {
        Tombstone t = tombstones.get(key);
        return t == null ? null : t.emission;
    }

    private static Rejected mismatch(Entry e, Contribution c) {
        if (e.acc == null) {
            if (c.payload().elementType() != ElementType.NONE && c.op() == ReductionOp.NONE) {
                return Rejected.of(DropReason.NO_OP);
            }
            return null;
        }
        if (c.op() != e.op) {
            return Rejected.of(DropReason.OP_MISMATCH, c.op(), e.op);
        }
        if (c.payload().elementType() != e.acc.elementType() || c.payload().elements() != e.acc.elements()) {
            return Rejected.of(DropReason.PAYLOAD_MISMATCH, c.payload(), e.acc);
        }
        return null;
    }

    private void reduce(Entry e, Contribution c) {
        e.held = e.held.or(c.pbm());
        e.congested |= c.congested();
        if (c.holds() != null) {
            e.holds = e.holds == null ? c.holds() : e.holds.or(c.holds());
        }
        if (e.firstVt == Long.MIN_VALUE) {
            e.firstVt = c.vt();
        }
        e.maxVt = Math.max(e.maxVt, c.vt());
        if (e.acc == null) {
            e.op = c.op();
            e.acc = c.payload().copy();
            bufferedBytes += e.acc.byteSize();
            peakBufferedBytes = Math.max(peakBufferedBytes, bufferedBytes);
            return;
        }
        e.op.apply(e.acc, c.payload());
    }

    /**
     * The entries admission control reserved for {@code job} on this switch (S5): from now on its
     * quota of live entries, in place of the device's default; 0 or less takes the reservation back.
     */
    public void reserve(JobKey job, int entries) {
        if (entries > 0) {
            reserved.put(job, entries);
        } else {
            reserved.remove(job);
        }
    }

    /**
     * {@code job} shares this switch's pool (T2): {@code grant} entries are its own (its quota, when
     * strict); a best-effort job also takes entries of the pool that nobody was granted and nobody holds.
     */
    public void pool(JobKey job, PoolShare share, int grant) {
        pooled.put(job, share);
        if (grant > 0) {
            reserved.put(job, grant);
        } else {
            reserved.remove(job);
        }
    }

    /**
     * {@code job} has completed: its grant goes back to the pool (its live entries stay until they
     * leave, and count while they do).
     */
    public void release(JobKey job) {
        if (pooled.containsKey(job)) {
            reserved.remove(job);
        }
    }

    /** The most live entries {@code job} may hold here. */
    public int quota(JobKey job) {
        if (pooled.containsKey(job)) {
            return reserved.getOrDefault(job, 0);
        }
        return reserved.getOrDefault(job, maxEntriesPerJob);
    }

    /**
     * The pool's entries that no job was granted and no job holds past its grant (T2); 0 without a
     * pool. The pool is every pooled job's, so any share names its capacity.
     */
    public int poolFree() {
        if (pooled.isEmpty()) {
            return 0;
        }
        int taken = 0;
        for (JobKey j : pooled.keySet()) {
            taken += Math.max(reserved.getOrDefault(j, 0), entriesPerJob.getOrDefault(j, 0));
        }
        return Math.max(0, pooled.values().iterator().next().capacity() - taken);
    }

    private Entry open(StateKey key, EndpointSet nodeBitmap, long timeoutNanos, long now) {
        JobKey job = key.jobKey();
        int live = entriesPerJob.getOrDefault(job, 0);
        PoolShare share = pooled.get(job);
        boolean outside = false;
        if (share != null && share.bestEffort()) {
            Long until = passing.get(key);
            boolean passes = until != null && until > now;
            if (passes || (live >= quota(job) && poolFree() == 0)) {
                if (!share.foldsAtRoot()) {
                    // one chunk passes on whole: an entry opened for its later contributions would wait out its timer
                    passing.put(key, now + tombstoneNanos);
                    return null;
                }
                outside = true;
            }
        } else if (live >= quota(job)) {
            return null;
        }
        Entry e = new Entry(key, nodeBitmap, now, timeoutNanos, ++generation);
        e.outside = outside;
        if (outside) {
            outsidePerJob.merge(job, 1, Integer::sum);
            outsideFolds.merge(job, 1L, Long::sum);
        } else {
            entriesPerJob.put(job, live + 1);
        }
        entries.put(key, e);
        deadlines.add(e.deadline, e.generation, key, entries.size());
        peakEntries = Math.max(peakEntries, entries.size());
        return e;
    }

    private boolean isLive(StateKey key, long generation) {
        Entry e = entries.get(key);
        return e != null && e.generation == generation;
    }

    private Refused refusal(StateKey key) {
        return new Refused(DropReason.QUOTA, DropReason.QUOTA.text(key.tenant(), key.job(), quota(key.jobKey()), key));
    }

    private Emission emit(Entry e, boolean partial, long now) {
        return emit(e, partial, partial, now);
    }

    /** {@code waited}: the entry left at its timer, so in modelled time no earlier than first arrival + timeout. */
    private Emission emit(Entry e, boolean partial, boolean waited, long now) {
        entries.remove(e.key);
        left(e);
        if (e.acc != null) {
            bufferedBytes -= e.acc.byteSize();
        }
        Payload payload = e.acc == null ? Payload.EMPTY : e.acc;
        long vt = e.maxVt == Long.MIN_VALUE ? 0 : e.maxVt;
        if (waited && e.firstVt != Long.MIN_VALUE) {
            vt = Math.max(vt, e.firstVt + e.timeoutNanos);
        }
        ended(e, vt);
        Emission emission = new Emission(
                e.key,
                e.nodeBitmap,
                e.held,
                e.op == null ? ReductionOp.NONE : e.op,
                payload,
                partial,
                e.firstArrival,
                now,
                vt,
                e.holds,
                e.congested);
        tombstones.put(e.key, new Tombstone(emission, e.held, e.holds, now + tombstoneNanos));
        return emission;
    }

    /**
     * Fires every deadline at or before {@code now}: each live entry past its deadline
     * leaves as a partial emission (possibly holding nothing, when an installed C-BM heard
     * from no one). Also forgets tombstones past their time.
     */
    public List<Emission> expire(long now) {
        List<Emission> out = new ArrayList<>();
        for (StateKey due = deadlines.pollDue(now); due != null; due = deadlines.pollDue(now)) {
            out.add(emit(entries.get(due), true, now));
        }
        // tombstones live equally long and sit in emission order: stop at the first one still alive
        Iterator<Tombstone> it = tombstones.values().iterator();
        while (it.hasNext() && it.next().expiresAt <= now) {
            it.remove();
        }
        if (!results.isEmpty()) {
            results.values().removeIf(c -> c.until <= now);
        }
        if (!passing.isEmpty()) {
            passing.values().removeIf(until -> until <= now);
        }
        return out;
    }

    /**
     * Emits at once, as partial, every live entry whose key matches: the state of a tree
     * that a routing change has just made stale (B5) leaves now instead of at its timer.
     * They leave in the order they were opened, as timeouts at one instant do.
     */
    public List<Emission> flush(Predicate<StateKey> which, long now) {
        List<Entry> due = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (which.test(e.key)) {
                due.add(e);
            }
        }
        // the map's order is the keys' hashes, and StateKey's holds an enum's identity hash, which
        // differs from JVM to JVM: the emissions share one port at one instant, so order is timing
        due.sort(Comparator.comparingLong(e -> e.generation));
        List<Emission> out = new ArrayList<>(due.size());
        for (Entry e : due) {
            out.add(emit(e, true, false, now));
        }
        return out;
    }

    /** Earliest pending deadline, or {@code Long.MAX_VALUE} when nothing waits. */
    public long nextDeadline() {
        return deadlines.next();
    }

    /** Drops every entry of a job (job end, or a crashed switch's state). */
    public void clearJob(int tenant, int job) {
        clearJob(tenant, job, true);
    }

    /** Drops every entry of a job, and its tombstones too when {@code tombstonesToo}. */
    public void clearJob(int tenant, int job, boolean tombstonesToo) {
        entries.values().removeIf(e -> {
            boolean match = e.key.tenant() == tenant && e.key.job() == job;
            if (match && e.acc != null) {
                bufferedBytes -= e.acc.byteSize();
            }
            if (match) {
                ended(e, e.maxVt == Long.MIN_VALUE ? 0 : e.maxVt);
            }
            return match;
        });
        if (tombstonesToo) {
            tombstones.keySet().removeIf(k -> k.tenant() == tenant && k.job() == job);
            results.keySet().removeIf(k -> k.tenant() == tenant && k.job() == job);
        }
        entriesPerJob.remove(new JobKey(tenant, job));
        outsidePerJob.remove(new JobKey(tenant, job));
        passing.keySet().removeIf(k -> k.tenant() == tenant && k.job() == job);
    }

    /** What one live entry holds: the contributions' bits and their running reduction. */
    public record Held(EndpointSet held, Payload accumulator) {}

    /**
     * Every live entry's bits and accumulator, copied: an inspection of the buffers (S6's test that
     * no switch holds a cleartext contribution), never on the data path.
     */
    public Map<StateKey, Held> snapshot() {
        Map<StateKey, Held> out = new HashMap<>();
        entries.forEach((k, e) -> out.put(k, new Held(e.held, e.acc == null ? Payload.EMPTY : e.acc.copy())));
        return out;
    }

    /** An entry's life ends at modelled time {@code at}; one folded outside the pool is not the pool's. */
    private void ended(Entry e, long at) {
        if (!e.outside) {
            lives.ended(e.key.jobKey(), e.firstVt == Long.MIN_VALUE ? at : e.firstVt, at);
        }
    }

    private void left(Entry e) {
        if (e.outside) {
            outsidePerJob.merge(e.key.jobKey(), -1, Integer::sum);
        } else {
            entriesPerJob.merge(e.key.jobKey(), -1, Integer::sum);
        }
    }

    /** The chunks of {@code job} its root folded outside the pool so far (T2, best-effort), live or gone. */
    public long outsideFolds(JobKey job) {
        return outsideFolds.getOrDefault(job, 0L);
    }

    /**
     * The jobs' live entries over modelled time as steps: the time (ns) of each change and the
     * count from then on, in time order; an entry still live counts to the end.
     */
    public List<long[]> entriesOverTime(Collection<JobKey> jobs) {
        List<Long> stillLive = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (jobs.contains(e.key.jobKey()) && !e.outside) {
                stillLive.add(e.firstVt == Long.MIN_VALUE ? 0 : e.firstVt);
            }
        }
        return lives.steps(jobs, stillLive);
    }

    public int liveEntries() {
        return entries.size();
    }

    public int peakEntries() {
        return peakEntries;
    }

    public long bufferedBytes() {
        return bufferedBytes;
    }

    public long peakBufferedBytes() {
        return peakBufferedBytes;
    }
}
