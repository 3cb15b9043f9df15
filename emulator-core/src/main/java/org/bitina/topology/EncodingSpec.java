package org.bitina.topology;

import org.bitina.bitmap.Encoding;

/** A job's endpoint-set encoding (H2); {@code blockSize} matters only for the hierarchical one. */
public record EncodingSpec(Encoding encoding, int blockSize) {
    public static final EncodingSpec FLAT = new EncodingSpec(Encoding.FLAT, 1);
}
