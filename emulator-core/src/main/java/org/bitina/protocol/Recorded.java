package org.bitina.protocol;

/**
 * What a device records for the run's outputs: a trace event ({@code --trace}) or a packet as it
 * goes onto a link ({@code --pcap}). One channel for both, so a capture and a trace of the same run
 * share their filter and are closed together.
 */
public sealed interface Recorded permits TraceEvent, PacketCapture {}
