package org.bitina.workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A step graph's point-to-point transfers (Chakra's COMM_SEND_NODE and COMM_RECV_NODE, pipeline
 * parallelism's activations and gradients) as one step each: the {@code n}-th SEND from rank
 * {@code a} to rank {@code b} with tag {@code t} (in step id order, which is each rank's trace order)
 * is matched with the {@code n}-th RECV on {@code b} from {@code a} with tag {@code t}, and the pair
 * becomes a {@link StepType#SEND_RECV} over {@code {a, b}} rooted at the sender, with the SEND's id
 * and name and both sides' dependencies. So the RECV's dependents wait for the data's arrival, and so
 * do the SEND's (a rendezvous send: its buffer is free once the receiver has it). Pure.
 */
public final class TransferPairs {
    private TransferPairs() {}

    /** A send's or receive's partners: sender, receiver, tag. */
    private record Channel(int from, int to, int tag) {}

    /**
     * {@code graph} with every SEND and its RECV merged into one step; a graph without transfers is
     * returned as it is.
     *
     * @throws IllegalArgumentException a SEND or RECV without its partner, a pair whose sizes differ,
     *     or pairs whose dependencies form a cycle (two ranks each receiving before they send)
     */
    public static StepGraph merge(StepGraph graph) {
        Map<Channel, Deque<Step>> sends = new HashMap<>();
        Map<Channel, Deque<Step>> recvs = new HashMap<>();
        List<Step> byId = new ArrayList<>(graph.steps());
        byId.sort(Comparator.comparingInt(Step::id));
        for (Step s : byId) {
            if (s.op() instanceof Step.Transfer t) {
                boolean send = t.type() == StepType.SEND;
                Channel ch = send ? new Channel(t.rank(), t.peer(), t.tag()) : new Channel(t.peer(), t.rank(), t.tag());
                (send ? sends : recvs)
                        .computeIfAbsent(ch, k -> new ArrayDeque<>())
                        .add(s);
            }
        }
        if (sends.isEmpty() && recvs.isEmpty()) {
            return graph;
        }
        // each RECV's id becomes its SEND's: the merged step keeps the SEND's
        Map<Integer, Integer> renamed = new HashMap<>();
        Map<Integer, Step> partner = new HashMap<>();
        for (Step s : byId) {
            if (!(s.op() instanceof Step.Transfer t) || t.type() != StepType.SEND) {
                continue;
            }
            Channel ch = new Channel(t.rank(), t.peer(), t.tag());
            Deque<Step> waiting = recvs.get(ch);
            Step r = waiting == null ? null : waiting.poll();
            if (r == null) {
                throw new IllegalArgumentException("step " + s.id() + " (" + s.name() + "): a SEND from rank "
                        + t.rank() + " to rank " + t.peer() + " with tag " + t.tag()
                        + " has no matching RECV on rank " + t.peer());
            }
            long got = ((Step.Transfer) r.op()).bytes();
            if (got != t.bytes()) {
                throw new IllegalArgumentException("step " + s.id() + " (" + s.name() + ") sends " + t.bytes()
                        + " bytes to rank " + t.peer() + ", but its RECV, step " + r.id() + " (" + r.name()
                        + "), takes " + got);
            }
            renamed.put(r.id(), s.id());
            partner.put(s.id(), r);
        }
        for (Deque<Step> left : recvs.values()) {
            if (!left.isEmpty()) {
                Step r = left.peek();
                Step.Transfer t = (Step.Transfer) r.op();
                throw new IllegalArgumentException("step " + r.id() + " (" + r.name() + "): a RECV on rank "
                        + t.rank() + " from rank " + t.peer() + " with tag " + t.tag()
                        + " has no matching SEND on rank " + t.peer());
            }
        }
        List<Step> out = new ArrayList<>();
        for (Step s : graph.steps()) {
            if (renamed.containsKey(s.id())) {
                continue; // a RECV: merged into its SEND
            }
            Step r = partner.get(s.id());
            if (r == null) {
                out.add(new Step(
                        s.id(),
                        s.name(),
                        s.op(),
                        remap(s.dataDeps(), renamed, s.id()),
                        remap(s.ctrlDeps(), renamed, s.id())));
                continue;
            }
            Step.Transfer t = (Step.Transfer) s.op();
            int a = Math.min(t.rank(), t.peer());
            int b = Math.max(t.rank(), t.peer());
            ProcessGroup pair = new ProcessGroup("p2p" + a + "-" + b, List.of(a, b));
            List<Integer> data = new ArrayList<>(s.dataDeps());
            data.addAll(r.dataDeps());
            List<Integer> ctrl = new ArrayList<>(s.ctrlDeps());
            ctrl.addAll(r.ctrlDeps());
            List<Integer> d = remap(data, renamed, s.id());
            List<Integer> c = remap(ctrl, renamed, s.id());
            List<Integer> ctrlOnly = new ArrayList<>(c);
            ctrlOnly.removeAll(d);
            out.add(new Step(
                    s.id(), s.name(), new Step.Collective(StepType.SEND_RECV, pair, t.bytes(), t.rank()), d, ctrlOnly));
        }
        return new StepGraph(graph.worldSize(), out);
    }

    /** {@code deps} with merged RECVs named by their SENDs, once each, without {@code self}. */
    private static List<Integer> remap(List<Integer> deps, Map<Integer, Integer> renamed, int self) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int d : deps) {
            int e = renamed.getOrDefault(d, d);
            if (e != self) {
                out.add(e);
            }
        }
        return List.copyOf(out);
    }
}
