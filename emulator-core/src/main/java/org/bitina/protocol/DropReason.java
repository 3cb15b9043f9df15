package org.bitina.protocol;

import java.util.Locale;

/**
 * Every reason a node drops a frame, one constant a rule (issue 43 item 1). A drop carries its
 * constant and the text made from its template; the report counts drops by that text with the
 * numbers and bitmaps left out ({@code "bitmap of N bits in a job of N"}), as before the reasons
 * were typed, so the JSON names did not change. docs/reference.md lists them all
 * ({@code DropReasonTest} keeps the list whole).
 */
public enum DropReason {
    // routing (NodeContext, NodeEngine)
    /** A frame for a switch's own state, which it no longer keeps (a straggler's ACK after its entry expired). */
    SWITCH_WITHOUT_STATE("addressed to this switch, which keeps no state for it"),
    UNKNOWN_DESTINATION("unknown destination %s"),
    NO_ROUTE("no route to %s"),
    LINK_DOWN("link down"),
    UNKNOWN_JOB("unknown job %s"),
    NO_BIFT("no BIFT for this job here"),
    /** A frame sent under a VAT that a repair replaced while it was on its way. */
    STALE_VAT("sent under the VAT before its repair"),

    // ingress (S2-S5)
    RATE("rate"),
    MAC("mac"),
    /** What the job's {@code IngressPolicy} refused, in its words (foreign bits or provenance, spoofed bits, a wrong sender). */
    INGRESS_POLICY("%s"),
    SEQUENCE_OUT_OF_RANGE("sequence out of range"),
    REPLAY("replay"),
    BITMAP_SIZE("bitmap of %d bits in a job of %d"),
    PROVENANCE_SIZE("provenance of %d bits in a second stage over a job of %d"),
    PROVENANCE_OUTSIDE_PARTITIONS("provenance outside the partitions its P-BM names"),

    // the aggregation table
    PBM_SIZE("P-BM of %d bits against a node bitmap of %d"),
    EMPTY_PBM("empty P-BM"),
    PBM_OUTSIDE_NODE_BITMAP("P-BM %s carries bits outside the node bitmap %s"),
    PBM_OVERLAP("P-BM %s overlaps the held %s without being contained: it would count %s twice"),
    HOLDS_OVERLAP("contribution holding %s overlaps the held %s: it would count %s twice"),
    LATE_HOLDS_OVERLAP("late contribution holding %s overlaps what already left, %s"),
    LATE_PBM_OVERLAP("late P-BM %s overlaps what already left, %s"),
    NO_OP("payload without a reduction op"),
    OP_MISMATCH("reduction %s differs from %s of the first contribution"),
    PAYLOAD_MISMATCH("payload %s does not match %s"),
    /** S5: the job holds its quota of entries and the tree has no node upstream to pass the contribution to. */
    QUOTA("job t%d/j%d holds its quota of %d aggregation entries; %s refused"),
    DUPLICATE("duplicate %s"),

    // the trees (preconfigured, self-installed, BIER-INC, edge shares)
    NO_SECOND_STAGE("no second stage installed for this partition"),
    NO_PARTITION_TREE("no partition tree installed under this partition root"),
    LATE_WITHOUT_UPSTREAM("late contribution with no node upstream to take it"),
    LATE_AFTER_FORGETTING("late contribution after the result was forgotten"),
    LATE_MISMATCH("late payload does not match the result"),
    ANSWERED_DOWN("retransmission answered by the result sent down just before"),
    ANSWERED_UP("retransmission answered by the aggregate sent up just before"),
    DUPLICATE_RETRANSMISSION("duplicate retransmission: the aggregation open here carries it"),
    RETRANSMISSION_AFTER_FORGETTING("retransmitted contribution after the result was forgotten"),
    STAGE_WITHOUT_RESULT("retransmitted contribution while the second stage has no result for it yet"),
    BRANCH_WITHOUT_RESULT("retransmitted contribution: this branch keeps no result to resend"),
    CBM_NOT_INSTALLED("C-BM not installed: %s"),
    BFIR_OUTSIDE_BITS("reduction for BFIR-id %d, outside the job's bit space"),
    NO_ROUTE_TO_BFIR("no route to BFIR %d"),
    NO_BFIR_BEHIND_LEAF("no BFIR behind leaf %s"),
    FOREIGN_SHARE("a host behind %s sent bitstring %s; it can only speak for this leaf's bit");

    private final String template;

    DropReason(String template) {
        this.template = template;
    }

    /** The template, {@code %s} a name, bitmap or text, {@code %d} a number. */
    public String template() {
        return template;
    }

    /** The drop's text: the template with {@code args} in it. */
    public String text(Object... args) {
        return args.length == 0 ? template : String.format(Locale.ROOT, template, args);
    }

    /** How the report counts drops of a text: its numbers and bracketed bitmaps left out. */
    public static String key(String text) {
        return text.replaceAll("\\[[^\\]]*\\]", "[...]").replaceAll("\\d+", "N");
    }
}
