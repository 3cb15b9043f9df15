package org.bitina.run;

/**
 * A phase's packet bound (issue 26, item 4): what its plan sends when nothing is lost, and how many
 * frames its devices may handle before the run stops it as a storm ({@link
 * org.bitina.usecase.PhaseEstimate#frameLimit}).
 *
 * @param plannedPackets the packets its use case plans to send when nothing is lost
 * @param frameLimit     the frames (link arrivals and timers) past which the phase ends failed
 */
public record PacketBound(long plannedPackets, long frameLimit) {}
