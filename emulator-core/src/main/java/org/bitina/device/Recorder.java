package org.bitina.device;

import org.apache.pekko.actor.typed.ActorRef;
import org.bitina.protocol.Recorded;

/**
 * Where a device records what the run's outputs ask for: trace events ({@code events},
 * {@code --trace}) and packets on its links ({@code packets}, {@code --pcap}); a device builds
 * neither when it is not asked, so a run without them pays nothing.
 */
public record Recorder(ActorRef<Recorded> to, boolean events, boolean packets) {}
