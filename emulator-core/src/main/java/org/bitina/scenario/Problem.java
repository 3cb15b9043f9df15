package org.bitina.scenario;

/** One defect of a scenario file, printed as {@code FILE:LINE: message}. */
public record Problem(String file, int line, String message) {
    @Override
    public String toString() {
        return file + ":" + Math.max(line, 1) + ": " + message;
    }
}
