package org.bitina.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import org.bitina.job.Labels;

/**
 * Why a phase ended before its endpoints did, or did not run at all: the row's {@code ended}, so that
 * the console, the chaos checks and a reader of the report ask for a cause, not for a phrase in the
 * note (which still says the same, for people).
 *
 * @param cause what ended it
 * @param why   what the runner saw, in words; absent when the cause says it all (a real-clock deadline)
 */
public record Ending(
        Cause cause,
        @JsonInclude(JsonInclude.Include.NON_NULL) String why) {

    public enum Cause {
        /** The modelled deadline passed (virtual clock), or the wall-clock one (real clock). */
        DEADLINE,
        /** Under the virtual clock: no frame in flight and no timer armed, endpoints still waiting. */
        NOTHING_LEFT,
        /** Under the real clock: no endpoint received anything for the stall period. */
        NO_PROGRESS,
        /** A device could not take part in a window (it failed to handle one): the clock cannot go on without it. */
        CLOCK_STOPPED,
        /** More frames than any retransmission or duplicate explains: a forwarding loop or a duplication storm. */
        PACKET_STORM,
        /** A cluster member (or a device) was lost while the phase ran (E4). */
        MEMBER_LOST,
        /** The phase never started: a member was lost before it, or the file's schedule could not be run. */
        NOT_RUN;

        @JsonValue
        public String label() {
            return Labels.of(this);
        }

        @JsonCreator
        public static Cause of(String label) {
            return Labels.parse(Cause.class, label, "ending");
        }
    }

    /** Whether the phase ran at all. */
    public boolean ran() {
        return cause != Cause.NOT_RUN;
    }
}
