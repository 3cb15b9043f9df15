package org.bitina.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bitina.bitmap.EndpointSets;
import org.bitina.protocol.AggregationTable;
import org.bitina.protocol.Counter;
import org.bitina.protocol.Frame;
import org.bitina.protocol.JobTables;
import org.bitina.protocol.NodeEngine;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.LinkSpec;
import org.bitina.topology.Routing;
import org.bitina.topology.Topologies;
import org.bitina.wire.Flags;
import org.bitina.wire.InaHeader;
import org.bitina.wire.InaPacket;
import org.bitina.wire.PacketCodec;
import org.bitina.wire.PacketType;
import org.bitina.wire.Payload;
import org.bitina.wire.ReductionOp;
import org.junit.jupiter.api.Test;

/** S2: job keys from the run's secret, packet tags, and the check at the first switch. */
class PacketMacTest {
    private static final long MS = 1_000_000L;
    private static final byte[] SECRET = "a run's secret, 32 bytes long!!!".getBytes(StandardCharsets.US_ASCII);
    private final PacketMac mac = new PacketMac();

    private static InaPacket contribution(String bits, float value) {
        InaHeader h = InaHeader.of(PacketType.CONTRIBUTION, 1, 1, 0).withOp(ReductionOp.SUM);
        return new InaPacket(h, EndpointSets.parse(bits), Payload.of(new float[] {value}));
    }

    /**
     * Issue 44 item 2: the tag is HMAC-SHA256 over the header as encoded and the payload's SHA-256
     * (seed 000 section 8: "a MAC over the headers and a payload digest"), recomputed here with the
     * JDK alone; the digest is taken once per payload, and a changed copy has its own.
     */
    @Test
    void theTagCoversTheHeaderAndThePayloadsDigestTakenOnce() throws Exception {
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        InaPacket p = contribution("[1010]", 3.5f);
        java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(PacketCodec.headerBytes(p));
        PacketCodec.encodeHeader(p, header);
        byte[] payloadBytes = java.nio.ByteBuffer.allocate(4).putFloat(3.5f).array();
        javax.crypto.Mac hmac = javax.crypto.Mac.getInstance("HmacSHA256");
        hmac.init(new javax.crypto.spec.SecretKeySpec(k, "HmacSHA256"));
        hmac.update(header.array());
        hmac.update(java.security.MessageDigest.getInstance("SHA-256").digest(payloadBytes));
        assertArrayEquals(
                Arrays.copyOf(hmac.doFinal(), InaPacket.AUTH_TAG_BYTES),
                mac.sign(k, p).authTag());
        assertTrue(p.payload().digest() == p.payload().digest(), "taken once, kept");
        Payload.Float32 changed = (Payload.Float32) p.payload().copy();
        changed.values()[0] = 4f;
        assertFalse(Arrays.equals(p.payload().digest(), changed.digest()));
        assertFalse(mac.verify(k, mac.sign(k, p).withPayload(changed)), "a changed copy fails the tag");
    }

    @Test
    void eachJobHasItsOwnKeyAndTheSameInputsGiveTheSameKey() {
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        assertEquals(PacketMac.KEY_BYTES, k.length);
        assertArrayEquals(k, PacketMac.jobKey(SECRET, 1, 1));
        assertFalse(Arrays.equals(k, PacketMac.jobKey(SECRET, 1, 2)));
        assertFalse(Arrays.equals(k, PacketMac.jobKey(SECRET, 2, 1)));
        assertFalse(Arrays.equals(k, PacketMac.jobKey("another run's secret, 32 bytes!!".getBytes(), 1, 1)));
    }

    @Test
    void aTaggedPacketVerifiesAndAnyChangeOrForgeryDoesNot() throws Exception {
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        InaPacket signed = mac.sign(k, contribution("[1000]", 1f));
        assertEquals(InaPacket.AUTH_TAG_BYTES, signed.authTag().length);
        assertEquals(
                PacketCodec.encodedSize(contribution("[1000]", 1f)) + InaPacket.AUTH_TAG_BYTES,
                PacketCodec.encodedSize(signed));
        assertTrue(mac.verify(k, signed));
        assertTrue(mac.verify(k, PacketCodec.decode(PacketCodec.encode(signed))), "the tag survives the wire");
        assertFalse(mac.verify(k, signed.withPayload(Payload.of(new float[] {2f}))), "a changed value");
        assertFalse(mac.verify(k, signed.withEndpoints(EndpointSets.parse("[1100]"))), "a changed bitmap");
        assertFalse(mac.verify(k, contribution("[1000]", 1f)), "no tag");
        assertFalse(
                mac.verify(k, contribution("[1000]", 1f).withAuthTag(new byte[InaPacket.AUTH_TAG_BYTES])),
                "an all-zero tag");
        assertFalse(mac.verify(PacketMac.jobKey(SECRET, 1, 2), signed), "another job's key");
    }

    @Test
    void aSwitchMayMarkADataPacketButNotAnAck() {
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        InaPacket signed = mac.sign(k, contribution("[1000]", 1f));
        InaPacket marked =
                signed.withHeader(signed.header().withFlags(signed.header().flags() | Flags.CE));
        assertTrue(mac.verify(k, marked), "congestion experienced, set on the way, is not the sender's to vouch for");
        assertFalse(
                mac.verify(
                        k,
                        marked.withHeader(
                                marked.header().withFlags(marked.header().flags() | Flags.LAST))),
                "any other flag still is");
        // an ACK's CE is the receiver's CNP: a switch that set or cleared it would forge congestion
        InaPacket ack = mac.sign(
                k,
                contribution("[1000]", 1f)
                        .withHeader(contribution("[1000]", 1f).header().withType(PacketType.ACK)));
        assertTrue(mac.verify(k, ack));
        assertFalse(
                mac.verify(k, ack.withHeader(ack.header().withFlags(ack.header().flags() | Flags.CE))));
    }

    @Test
    void theFirstSwitchDropsAnEndpointsPacketWithoutItsJobsTagAndTakesTheTaggedOne() {
        Routing routing = Routing.compute(Topologies.paperFig1(LinkSpec.DEFAULT));
        BitSpace space = new BitSpace(List.of("w1", "w2", "w3", "w4"));
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        NodeEngine s1 = new NodeEngine("s1", routing, new AggregationTable(16, 500 * MS), false);
        s1.install(JobTables.builder("j", 1, 1, 4, 50 * MS)
                .bift(Bift.build(routing, "s1", space))
                .vatNode(EndpointSets.parse("[1100]"), "s6")
                .macKey(k)
                .build());
        s1.onFrame(new Frame(contribution("[1000]", 1f), "s6", 0), "w1", 0);
        s1.onFrame(
                new Frame(contribution("[1000]", 1f).withAuthTag(new byte[InaPacket.AUTH_TAG_BYTES]), "s6", 0),
                "w1",
                0);
        s1.onFrame(new Frame(mac.sign(PacketMac.jobKey(SECRET, 1, 2), contribution("[1000]", 1f)), "s6", 0), "w1", 0);
        assertEquals(Map.of("mac", 3L), s1.dropsByReason(1, 1));
        assertEquals(0, s1.counters(1, 1).get(Counter.TERMINATED));
        s1.onFrame(new Frame(mac.sign(k, contribution("[1000]", 1f)), "s6", 0), "w1", 0);
        assertEquals(1, s1.counters(1, 1).get(Counter.TERMINATED), "the tagged contribution is taken");
    }

    @Test
    void aHostTagsWhatItSendsAsItLeaves() {
        Routing routing = Routing.compute(Topologies.paperFig1(LinkSpec.DEFAULT));
        byte[] k = PacketMac.jobKey(SECRET, 1, 1);
        NodeEngine w1 = new NodeEngine("w1", routing, new AggregationTable(16, 500 * MS), false);
        w1.install(JobTables.builder("j", 1, 1, 4, 50 * MS).macKey(k).build());
        List<NodeEngine.Action> out = w1.originate(new Frame(contribution("[1000]", 1f), "s6", 0), 0);
        NodeEngine.Send sent = (NodeEngine.Send) out.stream()
                .filter(a -> a instanceof NodeEngine.Send)
                .findFirst()
                .orElseThrow();
        assertTrue(mac.verify(k, sent.frame().packet()), "signed on its way out");
    }
}
