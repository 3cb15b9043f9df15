package org.bitina.topology;

/** Switches forward, replicate and aggregate; hosts are endpoints and never carry transit traffic. */
public enum NodeKind {
    SWITCH,
    HOST
}
