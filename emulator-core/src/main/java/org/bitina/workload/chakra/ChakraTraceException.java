package org.bitina.workload.chakra;

/** A Chakra trace that cannot be read: the message names the file and, where it applies, the byte offset. */
public final class ChakraTraceException extends Exception {
    public ChakraTraceException(String message) {
        super(message);
    }

    public ChakraTraceException(String message, Throwable cause) {
        super(message, cause);
    }
}
