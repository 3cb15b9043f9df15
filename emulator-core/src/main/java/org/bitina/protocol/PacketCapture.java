package org.bitina.protocol;

/**
 * One packet on a link direction ({@code --pcap}): the frame as the capture writes it (Ethernet,
 * BIER, the INA packet exactly as the codec writes it; {@code capture.BierFrame}), built where the
 * packet is sent so that the writer only files it, and what the trace would say of it. {@code
 * event.node()} sent it, {@code event.to()} names the one neighbour it went to, {@code event.vt()}
 * is when its first bit went onto the link (after any queue); {@code event.event()} is {@code
 * send}, or {@code drop} with the link's reason in {@code event.detail()}. The trace's filter
 * applies to {@code event}. {@code phase} counts the run's phases as every device counts them (each
 * begins by resetting the links), since modelled time restarts at zero with each.
 */
public record PacketCapture(int phase, TraceEvent event, byte[] frame) implements Recorded {

    /** The link direction the packet was on, as the capture names its interface ({@code s1->s2}). */
    public String link() {
        return event.node() + "->" + event.to().get(0);
    }
}
