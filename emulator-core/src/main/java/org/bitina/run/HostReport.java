package org.bitina.run;

import java.util.Map;

/** A host that dropped frames (of jobs it runs, or of none), by reason, over every phase. */
public record HostReport(String name, Map<String, Long> drops) {}
