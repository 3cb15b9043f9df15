package org.bitina.topology;

/** An undirected link between two nodes. */
public record Link(String a, String b, LinkSpec spec) {
    public boolean touches(String node) {
        return a.equals(node) || b.equals(node);
    }

    public String other(String node) {
        if (a.equals(node)) {
            return b;
        }
        if (b.equals(node)) {
            return a;
        }
        throw new IllegalArgumentException(node + " is not on link " + this);
    }

    /** True when this is the link between x and y, in either order. */
    public boolean joins(String x, String y) {
        return (a.equals(x) && b.equals(y)) || (a.equals(y) && b.equals(x));
    }

    @Override
    public String toString() {
        return a + "--" + b;
    }
}
