package org.bitina.usecase.multicast;

import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitina.job.JobSpec;
import org.bitina.job.Mode;
import org.bitina.scenario.ConfigReader;
import org.bitina.scenario.ConfigSchema.Section;
import org.bitina.scenario.HostLists;
import org.bitina.scenario.HostSelector;
import org.bitina.scenario.JobHeader;
import org.bitina.scenario.JobKeys;
import org.bitina.scenario.JobParts;
import org.bitina.scenario.JobReader;
import org.bitina.topology.BitSpace;
import org.bitina.topology.EncodingSpec;
import org.bitina.topology.Topology;

/**
 * A reliable multicast job (seed 000 section 5): a {@code source} sends {@code data} to
 * {@code receivers}, which acknowledge per window or per packet over an {@code ack} tree;
 * lost packets are sent again for up to {@code max-rounds} rounds.
 */
public final class ReliableMulticastJobReader extends JobReader {
    static final String KIND = "reliable-multicast";
    /** R6: one unicast ACK per receiver to the source (the implosion). */
    static final Mode UNICAST_ACK = new Mode("unicast-ack");

    public ReliableMulticastJobReader() {
        super(
                KIND,
                List.of(UNICAST_ACK),
                Map.of(JobKeys.JOB_PATH, MulticastKeys.JOB, JobKeys.DATA_PATH, MulticastKeys.DATA),
                List.of(MulticastKeys.ACK));
    }

    @Override
    public JobSpec read(ConfigReader c, Topology topology, int index, Section dataKeys) {
        int before = c.problems().count();
        JobHeader header = JobHeader.read(c, index, kind(), List.of(UNICAST_ACK), topology);
        String source = c.requiredName("source", "a reliable-multicast job's source");
        if (source != null && !JobParts.requireHost(c, c.origin("source"), source, "multicast source", topology)) {
            source = null;
        }
        List<String> receivers = receivers(c, topology, source);
        // the receivers hold the bits by default; bit-space = hosts, or explicit BFR-ids, as for any job
        BitSpace space = receivers == null || receivers.isEmpty() ? null : JobParts.bitSpace(c, topology, receivers);
        EncodingSpec encoding = JobParts.encoding(c, topology, space);

        ConfigReader d = c.objectOrEmpty("data");
        long bytes = 1 << 20;
        int packet = 1024;
        int window = 16;
        long seed = 1;
        if (d != null) {
            d.checkKeys(dataKeys, KIND, "data of a reliable-multicast job");
            bytes = d.bytes("bytes", 1, 1L << 34, "1 byte to 16 GiB", bytes);
            packet = d.intIn("packet", 4, 1 << 20, packet);
            if (packet % 4 != 0) {
                d.problem("packet", d.label("packet") + " must be a multiple of 4 bytes, got " + packet);
            }
            window = d.intIn("window", 1, 1 << 16, window);
            seed = d.wholeLong("seed", seed);
        }
        seed = c.drawn(seed);
        ConfigReader a = c.objectOrEmpty("ack");
        String per = "window";
        String tree = "composed";
        if (a != null) {
            a.checkKeys(MulticastKeys.ACK, "ack");
            per = a.oneOf("per", List.of("window", "packet"), per);
            tree = a.oneOf("tree", List.of("preconfigured", "self-installed", "composed"), tree);
        }
        int maxRounds = c.intIn("max-rounds", 1, 1000, 16);
        if (c.problems().since(before)
                || header == null
                || topology == null
                || d == null
                || a == null
                || encoding == null) {
            return null;
        }
        if (source == null || receivers == null || receivers.isEmpty()) {
            c.problem(c.origin(), "a reliable-multicast job needs a source and at least one receiver");
            return null;
        }
        // whether a data packet fits the links it crosses, its receiver set encoded, is checked once planned
        // (WireBudget)
        return new MulticastSpec(
                header.common(KIND, List.copyOf(receivers), space, encoding),
                source,
                new MulticastSpec.Params(bytes, packet, window, seed, "window".equals(per), tree, maxRounds));
    }

    /**
     * The receivers: a list of hosts and {@link HostSelector host selectors}, or one selector
     * ({@code "all"}: every host but the source; a selector leaves the source out); null when missing or bad.
     */
    private static List<String> receivers(ConfigReader c, Topology topology, String source) {
        if (!c.has("receivers")) {
            c.problem(c.origin(), "a reliable-multicast job needs receivers = [hosts] or \"all\"");
            return null;
        }
        List<? extends ConfigValue> elements = HostLists.elements(c, "receivers");
        List<HostLists.Named> named = elements == null
                ? null
                : HostLists.expand(c, elements, topology, "a receiver", source == null ? Set.of() : Set.of(source));
        if (named == null) {
            return null;
        }
        List<String> receivers = new ArrayList<>();
        for (HostLists.Named n : named) {
            String h = n.name();
            if (JobParts.requireHost(c, n.from().origin(), h, "receiver", topology)) {
                if (h.equals(source)) {
                    c.problem(n.from().origin(), "the source '" + h + "' cannot also be a receiver");
                } else if (receivers.contains(h)) {
                    c.problem(n.from().origin(), "receiver '" + h + "' is listed twice");
                } else {
                    receivers.add(h);
                }
            }
        }
        return topology == null ? null : receivers;
    }

    /** The attacks section may target its receivers' acknowledgments. */
    @Override
    public Attacks attacks() {
        return Attacks.ACKNOWLEDGMENTS;
    }
}
