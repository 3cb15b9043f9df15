package org.bitina.usecase.reduction;

import java.util.List;
import java.util.Map;
import org.bitina.wire.InaPacket;

/**
 * The check a member of a host-run collective (a schedule's worker, an all-gather member) makes of every
 * frame before it looks inside: the chunk is one of the job's and the source bit is a member's. A frame
 * that fails it is not this job's data and is recorded as a mismatch, never taken.
 */
public final class MemberFrames {
    private MemberFrames() {}

    /**
     * The index of the member that sent {@code p}, or null after recording in {@code mismatches} why the frame
     * is not this job's: its chunk is outside {@code [0, chunks)}, or no member holds its source bit.
     */
    public static Integer sender(InaPacket p, int chunks, Map<Integer, Integer> memberOfBit, List<String> mismatches) {
        long seq = p.header().seq();
        Integer from = memberOfBit.get(p.header().source());
        if (seq < 0 || seq >= chunks || from == null) {
            mismatches.add("packet for chunk " + seq + " from bit " + p.header().source() + " is not this job's");
            return null;
        }
        return from;
    }
}
