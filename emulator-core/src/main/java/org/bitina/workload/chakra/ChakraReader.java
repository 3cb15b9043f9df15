package org.bitina.workload.chakra;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bitina.workload.ProcessGroup;
import org.bitina.workload.Step;
import org.bitina.workload.StepGraph;
import org.bitina.workload.StepType;
import org.bitina.workload.chakra.proto.EtDef;

/**
 * Reads a directory of Chakra execution traces (MLCommons, {@code schema/protobuf/et_def.proto})
 * into a {@link StepGraph}: one {@code PREFIX.RANK.et} file per rank, each a {@code GlobalMetadata}
 * then {@code Node}s, every message preceded by its length as a varint (Chakra's {@code
 * encode_message}).
 *
 * <p>A COMP_NODE becomes compute of its {@code duration_micros}; a COMM_COLL_NODE a collective of
 * {@code comm_type} and {@code comm_size} bytes over the group {@code pg_name} names (its ranks are
 * those whose traces name it; without a {@code pg_name}, every rank); COMM_SEND_NODE and
 * COMM_RECV_NODE one side of a transfer to {@code comm_dst} or from {@code comm_src}. A collective
 * appears in each member's trace: the {@code n}-th collective on a group in one member's file is the
 * {@code n}-th in every other member's, and they must agree on type and size. Every other node is
 * skipped and counted; a dependency on a skipped node becomes a dependency on what that node
 * depended on. Anything malformed is a {@link ChakraTraceException} naming the file and offset.
 */
public final class ChakraReader {
    private static final Pattern RANK = Pattern.compile(".*?(\\d+)\\.et");

    private ChakraReader() {}

    /** One node of one rank's file, as read. */
    private record Raw(
            int rank, long id, String name, long offset, Kind kind, Step.Op op, Collective collective, Deps deps) {
        String group() {
            return collective.group();
        }

        List<Long> data() {
            return deps.data();
        }

        List<Long> ctrl() {
            return deps.ctrl();
        }
    }

    private record Deps(List<Long> data, List<Long> ctrl) {}

    private enum Kind {
        COMPUTE,
        TRANSFER,
        COLLECTIVE,
        SKIPPED
    }

    /** A collective as one member's trace has it; the copies of one collective agree on type and size. */
    private record Collective(StepType type, long bytes, String group) {
        boolean agrees(Collective o) {
            return type == o.type && bytes == o.bytes;
        }

        @Override
        public String toString() {
            return type + " of " + bytes + " bytes";
        }
    }

    public static ChakraImport read(Path directory) throws ChakraTraceException {
        Map<Integer, Path> files = files(directory);
        int world = files.size();
        Map<String, Integer> skipped = new TreeMap<>();
        List<List<Raw>> ranks = new ArrayList<>();
        for (Map.Entry<Integer, Path> f : files.entrySet()) {
            ranks.add(readFile(f.getValue(), f.getKey(), world, skipped));
        }
        return new ChakraImport(merge(directory, files, ranks, world), skipped);
    }

    private static Map<Integer, Path> files(Path directory) throws ChakraTraceException {
        List<Path> ets;
        try (Stream<Path> s = Files.list(directory)) {
            ets = s.filter(p -> p.getFileName().toString().endsWith(".et"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new ChakraTraceException(directory + ": cannot list the trace directory: " + e.getMessage(), e);
        }
        if (ets.isEmpty()) {
            throw new ChakraTraceException(directory + ": no *.et trace files");
        }
        Map<Integer, Path> byRank = new TreeMap<>();
        for (Path p : ets) {
            Matcher m = RANK.matcher(p.getFileName().toString());
            if (!m.matches() || m.group(1).length() > 6) {
                throw new ChakraTraceException(p + ": a trace file is named PREFIX.RANK.et (chakra.0.et, ...)");
            }
            int rank = Integer.parseInt(m.group(1));
            Path other = byRank.put(rank, p);
            if (other != null) {
                throw new ChakraTraceException(p + ": rank " + rank + " has a trace already (" + other + ")");
            }
        }
        for (int r = 0; r < byRank.size(); r++) {
            if (!byRank.containsKey(r)) {
                throw new ChakraTraceException(directory + ": " + byRank.size() + " trace files but none for rank " + r
                        + " (ranks must be 0.." + (byRank.size() - 1) + ")");
            }
        }
        return byRank;
    }

    private static List<Raw> readFile(Path file, int rank, int world, Map<String, Integer> skipped)
            throws ChakraTraceException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ChakraTraceException(file + ": cannot read: " + e.getMessage(), e);
        }
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        List<Raw> out = new ArrayList<>();
        boolean metadata = true;
        try {
            while (!in.isAtEnd()) {
                long offset = in.getTotalBytesRead();
                int length = in.readRawVarint32();
                if (length < 0 || length > bytes.length - in.getTotalBytesRead()) {
                    throw new ChakraTraceException(file + ": offset " + offset + ": a message of " + length
                            + " bytes runs past the end of the file (" + bytes.length + " bytes)");
                }
                byte[] message = in.readRawBytes(length);
                try {
                    if (metadata) {
                        EtDef.GlobalMetadata.parseFrom(message);
                        metadata = false;
                    } else {
                        out.add(node(file, rank, world, offset, EtDef.Node.parseFrom(message), skipped));
                    }
                } catch (InvalidProtocolBufferException e) {
                    throw new ChakraTraceException(
                            file + ": offset " + offset + ": not a " + (metadata ? "GlobalMetadata" : "Node")
                                    + " message: " + e.getMessage(),
                            e);
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw new ChakraTraceException(
                    file + ": offset " + in.getTotalBytesRead() + ": bad length prefix: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ChakraTraceException(file + ": cannot read: " + e.getMessage(), e);
        }
        if (metadata) {
            throw new ChakraTraceException(file + ": offset 0: empty, a trace starts with a GlobalMetadata");
        }
        return out;
    }

    private static Raw node(Path file, int rank, int world, long offset, EtDef.Node n, Map<String, Integer> skipped)
            throws ChakraTraceException {
        String where = file + ": offset " + offset + ": node " + n.getId();
        String name = n.getName().isEmpty() ? "rank " + rank + " node " + n.getId() : n.getName();
        Map<String, EtDef.AttributeProto> attrs = new HashMap<>();
        for (EtDef.AttributeProto a : n.getAttrList()) {
            attrs.put(a.getName(), a);
        }
        Deps deps = new Deps(n.getDataDepsList(), n.getCtrlDepsList());
        switch (n.getType()) {
            case COMP_NODE -> {
                Long nanos = integer(attrs.get(ChakraAttributes.DURATION_NANOS), where);
                if (nanos == null && (n.getDurationMicros() < 0 || n.getDurationMicros() > Long.MAX_VALUE / 1000)) {
                    throw new ChakraTraceException(where + ": duration_micros "
                            + Long.toUnsignedString(n.getDurationMicros()) + " is out of range");
                }
                long d = nanos != null ? nanos : n.getDurationMicros() * 1000L;
                if (d < 0) {
                    throw new ChakraTraceException(where + ": negative duration " + d + " ns");
                }
                return new Raw(rank, n.getId(), name, offset, Kind.COMPUTE, new Step.Compute(rank, d), null, deps);
            }
            case COMM_COLL_NODE -> {
                long type = required(attrs, ChakraAttributes.COMM_TYPE, where);
                StepType t = collective((int) type);
                if (t == null || type != (int) type) {
                    EtDef.CollectiveCommType ct = EtDef.CollectiveCommType.forNumber((int) type);
                    count(skipped, "COMM_COLL_NODE " + (ct == null ? "comm_type " + type : ct.name()));
                    return skip(rank, n, name, offset);
                }
                long size = size(attrs, where);
                EtDef.AttributeProto pg = attrs.get(ChakraAttributes.PG_NAME);
                String group = pg == null || pg.getStringVal().isEmpty() ? ChakraAttributes.WORLD : pg.getStringVal();
                return new Raw(
                        rank, n.getId(), name, offset, Kind.COLLECTIVE, null, new Collective(t, size, group), deps);
            }
            case COMM_SEND_NODE, COMM_RECV_NODE -> {
                boolean send = n.getType() == EtDef.NodeType.COMM_SEND_NODE;
                String peerKey = send ? ChakraAttributes.COMM_DST : ChakraAttributes.COMM_SRC;
                long peer = required(attrs, peerKey, where);
                if (peer < 0 || peer >= world || peer == rank) {
                    throw new ChakraTraceException(
                            where + ": " + peerKey + " = " + peer + " is not another rank of 0.." + (world - 1));
                }
                Long tag = integer(attrs.get(ChakraAttributes.COMM_TAG), where);
                Step.Transfer op = new Step.Transfer(
                        send ? StepType.SEND : StepType.RECV,
                        rank,
                        (int) peer,
                        size(attrs, where),
                        tag == null ? 0 : tag.intValue());
                return new Raw(rank, n.getId(), name, offset, Kind.TRANSFER, op, null, deps);
            }
            default -> {
                count(
                        skipped,
                        n.getType() == EtDef.NodeType.UNRECOGNIZED
                                ? "node type " + n.getTypeValue()
                                : n.getType().name());
                return skip(rank, n, name, offset);
            }
        }
    }

    private static Raw skip(int rank, EtDef.Node n, String name, long offset) {
        return new Raw(
                rank,
                n.getId(),
                name,
                offset,
                Kind.SKIPPED,
                null,
                null,
                new Deps(n.getDataDepsList(), n.getCtrlDepsList()));
    }

    private static void count(Map<String, Integer> skipped, String what) {
        skipped.merge(what, 1, Integer::sum);
    }

    private static StepType collective(int commType) {
        EtDef.CollectiveCommType t = EtDef.CollectiveCommType.forNumber(commType);
        if (t == null) {
            return null;
        }
        return switch (t) {
            case ALL_REDUCE -> StepType.ALL_REDUCE;
            case REDUCE_SCATTER -> StepType.REDUCE_SCATTER;
            case ALL_GATHER -> StepType.ALL_GATHER;
            case ALL_TO_ALL -> StepType.ALL_TO_ALL;
            case BROADCAST -> StepType.BROADCAST;
            case REDUCE -> StepType.REDUCE;
            default -> null;
        };
    }

    private static long size(Map<String, EtDef.AttributeProto> attrs, String where) throws ChakraTraceException {
        long size = required(attrs, ChakraAttributes.COMM_SIZE, where);
        if (size < 0) {
            throw new ChakraTraceException(where + ": negative comm_size " + size);
        }
        return size;
    }

    private static long required(Map<String, EtDef.AttributeProto> attrs, String key, String where)
            throws ChakraTraceException {
        Long v = integer(attrs.get(key), where);
        if (v == null) {
            throw new ChakraTraceException(where + ": missing attribute " + key);
        }
        return v;
    }

    /** An attribute's whole-number value, whichever integer field of the oneof holds it; null when absent. */
    private static Long integer(EtDef.AttributeProto a, String where) throws ChakraTraceException {
        if (a == null) {
            return null;
        }
        return switch (a.getValueCase()) {
            case INT32_VAL -> (long) a.getInt32Val();
            case INT64_VAL -> a.getInt64Val();
            case UINT32_VAL -> Integer.toUnsignedLong(a.getUint32Val());
            case UINT64_VAL -> {
                if (a.getUint64Val() < 0) {
                    throw new ChakraTraceException(where + ": attribute " + a.getName() + " is out of range");
                }
                yield a.getUint64Val();
            }
            case SINT32_VAL -> (long) a.getSint32Val();
            case SINT64_VAL -> a.getSint64Val();
            default ->
                throw new ChakraTraceException(
                        where + ": attribute " + a.getName() + " must hold an integer (got " + a.getValueCase() + ")");
        };
    }

    // ---------------------------------------------------------------- one graph out of the ranks' files

    private static StepGraph merge(Path directory, Map<Integer, Path> files, List<List<Raw>> ranks, int world)
            throws ChakraTraceException {
        // the members of each group: the ranks whose traces name it
        Map<String, Set<Integer>> members = new LinkedHashMap<>();
        for (List<Raw> nodes : ranks) {
            for (Raw n : nodes) {
                if (n.kind() == Kind.COLLECTIVE) {
                    members.computeIfAbsent(n.group(), g -> new TreeSet<>()).add(n.rank());
                }
            }
        }
        if (members.containsKey(ChakraAttributes.WORLD)) {
            Set<Integer> all = new TreeSet<>();
            for (int r = 0; r < world; r++) {
                all.add(r);
            }
            members.put(ChakraAttributes.WORLD, all);
        }
        Map<String, ProcessGroup> groups = new HashMap<>();
        members.forEach((g, rs) -> groups.put(g, new ProcessGroup(g, List.copyOf(rs))));

        // the n-th collective on a group in each member's file, and the steps' ids
        Map<String, List<List<Raw>>> instances = new HashMap<>();
        // identity: a node is the one read, not an equal one
        Map<Raw, Integer> idOf = new IdentityHashMap<>();
        List<Raw> firsts = new ArrayList<>();
        for (List<Raw> nodes : ranks) {
            Map<String, Integer> seen = new HashMap<>();
            Set<Long> ids = new HashSet<>();
            for (Raw n : nodes) {
                if (!ids.add(n.id())) {
                    throw new ChakraTraceException(
                            files.get(n.rank()) + ": offset " + n.offset() + ": node id " + n.id() + " used twice");
                }
                if (n.kind() == Kind.SKIPPED) {
                    continue;
                }
                if (n.kind() != Kind.COLLECTIVE) {
                    idOf.put(n, firsts.size());
                    firsts.add(n);
                    continue;
                }
                int k = seen.merge(n.group(), 1, Integer::sum) - 1;
                List<List<Raw>> list = instances.computeIfAbsent(n.group(), g -> new ArrayList<>());
                if (k == list.size()) {
                    list.add(new ArrayList<>());
                    firsts.add(n);
                }
                List<Raw> copies = list.get(k);
                if (!copies.isEmpty()) {
                    Raw first = copies.get(0);
                    if (!first.collective().agrees(n.collective())) {
                        throw new ChakraTraceException(
                                files.get(n.rank()) + ": offset " + n.offset() + ": node " + n.id()
                                        + " is collective " + (k + 1) + " on group " + n.group() + ", " + n.collective()
                                        + ", but in " + files.get(first.rank()) + " it is node " + first.id() + ", "
                                        + first.collective());
                    }
                }
                copies.add(n);
                idOf.put(n, idOf.getOrDefault(copies.get(0), firsts.size() - 1));
            }
        }
        for (Map.Entry<String, List<List<Raw>>> e : instances.entrySet()) {
            int size = groups.get(e.getKey()).size();
            for (int k = 0; k < e.getValue().size(); k++) {
                List<Raw> copies = e.getValue().get(k);
                if (copies.size() != size) {
                    Set<Integer> missing = new TreeSet<>(groups.get(e.getKey()).ranks());
                    copies.forEach(c -> missing.remove(c.rank()));
                    throw new ChakraTraceException(directory + ": collective " + (k + 1) + " on group " + e.getKey()
                            + " (" + copies.get(0).name() + ") is missing from the traces of ranks " + missing);
                }
            }
        }

        // dependencies, through skipped nodes, per rank
        List<Map<Long, Raw>> local = new ArrayList<>();
        for (List<Raw> nodes : ranks) {
            local.add(byId(nodes));
        }
        List<Step> steps = new ArrayList<>();
        for (int id = 0; id < firsts.size(); id++) {
            Raw first = firsts.get(id);
            List<Raw> copies = first.kind() == Kind.COLLECTIVE ? copiesOf(instances, first) : List.of(first);
            Set<Integer> data = new LinkedHashSet<>();
            Set<Integer> ctrl = new LinkedHashSet<>();
            for (Raw c : copies) {
                data.addAll(resolve(files, local.get(c.rank()), c, c.data(), idOf, new HashSet<>()));
                ctrl.addAll(resolve(files, local.get(c.rank()), c, c.ctrl(), idOf, new HashSet<>()));
            }
            data.remove(id);
            ctrl.remove(id);
            ctrl.removeAll(data);
            Step.Op op = first.kind() == Kind.COLLECTIVE
                    ? new Step.Collective(
                            first.collective().type(),
                            groups.get(first.group()),
                            first.collective().bytes())
                    : first.op();
            steps.add(new Step(id, first.name(), op, List.copyOf(data), List.copyOf(ctrl)));
        }
        try {
            return new StepGraph(world, steps);
        } catch (IllegalArgumentException e) {
            throw new ChakraTraceException(directory + ": " + e.getMessage(), e);
        }
    }

    private static List<Raw> copiesOf(Map<String, List<List<Raw>>> instances, Raw first) {
        for (List<Raw> copies : instances.get(first.group())) {
            if (copies.get(0) == first) {
                return copies;
            }
        }
        throw new IllegalStateException("no instance for " + first.name());
    }

    private static Map<Long, Raw> byId(List<Raw> nodes) {
        Map<Long, Raw> m = new HashMap<>();
        for (Raw n : nodes) {
            m.put(n.id(), n);
        }
        return m;
    }

    /** The step ids of {@code deps} of {@code of}; a skipped node stands for its own dependencies. */
    private static Set<Integer> resolve(
            Map<Integer, Path> files,
            Map<Long, Raw> local,
            Raw of,
            List<Long> deps,
            Map<Raw, Integer> idOf,
            Set<Long> visiting)
            throws ChakraTraceException {
        Set<Integer> out = new LinkedHashSet<>();
        for (long d : deps) {
            Raw dep = local.get(d);
            if (dep == null) {
                throw new ChakraTraceException(files.get(of.rank()) + ": offset " + of.offset() + ": node " + of.id()
                        + " depends on node " + d + ", which the file does not have");
            }
            if (dep.kind() != Kind.SKIPPED) {
                out.add(idOf.get(dep));
            } else if (visiting.add(d)) {
                out.addAll(resolve(files, local, dep, dep.data(), idOf, visiting));
                out.addAll(resolve(files, local, dep, dep.ctrl(), idOf, visiting));
            }
        }
        return out;
    }
}
