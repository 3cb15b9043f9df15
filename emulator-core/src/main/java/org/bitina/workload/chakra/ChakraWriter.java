package org.bitina.workload.chakra;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitina.workload.Step;
import org.bitina.workload.StepGraph;
import org.bitina.workload.StepType;
import org.bitina.workload.chakra.proto.EtDef;

/**
 * Writes a {@link StepGraph} as Chakra execution traces, one {@code bitina.RANK.et} per rank, as
 * Chakra's own tools write them: a {@code GlobalMetadata}, then the rank's nodes, each message
 * preceded by its length as a varint. A collective is a COMM_COLL_NODE in every member's trace,
 * with the step's id; a rank's trace keeps the dependencies on its own steps (every dependency of
 * a model-description step is on one of its ranks' steps, so reading the traces back gives the
 * same graph).
 */
public final class ChakraWriter {
    /** The schema version Chakra's generator writes. */
    static final String VERSION = "1.0.0";

    private ChakraWriter() {}

    public static void write(StepGraph graph, Path directory) throws IOException {
        Files.createDirectories(directory);
        Map<Integer, Step> byId = new HashMap<>();
        graph.steps().forEach(s -> byId.put(s.id(), s));
        for (int rank = 0; rank < graph.worldSize(); rank++) {
            try (OutputStream out = Files.newOutputStream(directory.resolve("bitina." + rank + ".et"))) {
                EtDef.GlobalMetadata.newBuilder()
                        .setVersion(VERSION)
                        .addAttr(attr("schema").setStringVal("bitina"))
                        .build()
                        .writeDelimitedTo(out);
                for (Step s : graph.stepsOf(rank)) {
                    node(byId, s, rank).writeDelimitedTo(out);
                }
            }
        }
    }

    private static EtDef.Node node(Map<Integer, Step> byId, Step s, int rank) {
        EtDef.Node.Builder n = EtDef.Node.newBuilder().setId(s.id()).setName(s.name());
        n.addAllDataDeps(own(byId, s.dataDeps(), rank));
        n.addAllCtrlDeps(own(byId, s.ctrlDeps(), rank));
        if (s.op() instanceof Step.Compute c) {
            n.setType(EtDef.NodeType.COMP_NODE)
                    .setDurationMicros(Math.round(c.nanos() / 1000.0))
                    .addAttr(attr(ChakraAttributes.DURATION_NANOS).setInt64Val(c.nanos()));
        } else if (s.op() instanceof Step.Collective c) {
            n.setType(EtDef.NodeType.COMM_COLL_NODE)
                    .addAttr(attr(ChakraAttributes.COMM_TYPE)
                            .setInt64Val(commType(c.type()).getNumber()))
                    .addAttr(attr(ChakraAttributes.COMM_SIZE).setInt64Val(c.bytes()))
                    .addAttr(attr(ChakraAttributes.PG_NAME)
                            .setStringVal(c.group().name()));
        } else {
            Step.Transfer t = (Step.Transfer) s.op();
            boolean send = t.type() == StepType.SEND;
            n.setType(send ? EtDef.NodeType.COMM_SEND_NODE : EtDef.NodeType.COMM_RECV_NODE)
                    .addAttr(attr(send ? ChakraAttributes.COMM_DST : ChakraAttributes.COMM_SRC)
                            .setInt32Val(t.peer()))
                    .addAttr(attr(ChakraAttributes.COMM_TAG).setInt32Val(t.tag()))
                    .addAttr(attr(ChakraAttributes.COMM_SIZE).setInt64Val(t.bytes()));
        }
        return n.build();
    }

    private static List<Long> own(Map<Integer, Step> byId, List<Integer> deps, int rank) {
        return deps.stream()
                .filter(d -> byId.get(d).involves(rank))
                .map(Integer::longValue)
                .toList();
    }

    private static EtDef.AttributeProto.Builder attr(String name) {
        return EtDef.AttributeProto.newBuilder().setName(name);
    }

    static EtDef.CollectiveCommType commType(StepType t) {
        return switch (t) {
            case ALL_REDUCE -> EtDef.CollectiveCommType.ALL_REDUCE;
            case REDUCE_SCATTER -> EtDef.CollectiveCommType.REDUCE_SCATTER;
            case ALL_GATHER -> EtDef.CollectiveCommType.ALL_GATHER;
            case ALL_TO_ALL -> EtDef.CollectiveCommType.ALL_TO_ALL;
            case BROADCAST -> EtDef.CollectiveCommType.BROADCAST;
            case REDUCE -> EtDef.CollectiveCommType.REDUCE;
            default -> throw new IllegalArgumentException(t + " is not a collective");
        };
    }
}
