package org.bitina.topology;

/**
 * A device of the topology.
 *
 * @param pod the pod or rack the node belongs to (placement and hierarchical blocks),
 *            or -1 when the topology names none
 */
public record Node(String name, NodeKind kind, int pod) {
    public boolean isSwitch() {
        return kind == NodeKind.SWITCH;
    }

    public boolean isHost() {
        return kind == NodeKind.HOST;
    }
}
