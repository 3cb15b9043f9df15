package org.bitina.workload.chakra;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A Chakra trace written tag by tag, with the field numbers of {@code et_def.proto} spelled out here
 * and not taken from the generated classes, as another tool following the public schema would
 * write it.
 */
final class RawTrace {
    // wire types
    static final int VARINT = 0;
    static final int LEN = 2;
    // GlobalMetadata
    static final int META_VERSION = 1;
    // Node
    static final int NODE_ID = 1;
    static final int NODE_NAME = 2;
    static final int NODE_TYPE = 3;
    static final int NODE_CTRL_DEPS = 4;
    static final int NODE_DATA_DEPS = 5;
    static final int NODE_DURATION_MICROS = 7;
    static final int NODE_ATTR = 10;
    // AttributeProto
    static final int ATTR_NAME = 1;
    static final int ATTR_INT32 = 7;
    static final int ATTR_INT64 = 9;
    static final int ATTR_STRING = 29;
    // NodeType
    static final int METADATA_NODE = 1;
    static final int COMP_NODE = 4;
    static final int COMM_SEND_NODE = 5;
    static final int COMM_RECV_NODE = 6;
    static final int COMM_COLL_NODE = 7;
    // CollectiveCommType
    static final int ALL_REDUCE = 0;
    static final int GATHER = 3;
    static final int ALL_TO_ALL = 6;

    private final ByteArrayOutputStream file = new ByteArrayOutputStream();

    static final class Message {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();

        Message varint(int field, long v) {
            tag(b, field, VARINT);
            RawTrace.varint(b, v);
            return this;
        }

        Message string(int field, String s) {
            return bytes(field, s.getBytes(StandardCharsets.UTF_8));
        }

        Message bytes(int field, byte[] v) {
            tag(b, field, LEN);
            RawTrace.varint(b, v.length);
            b.writeBytes(v);
            return this;
        }

        Message message(int field, Message m) {
            return bytes(field, m.b.toByteArray());
        }

        /** A repeated uint64 packed, as proto3 writes it by default. */
        Message packed(int field, List<Long> values) {
            ByteArrayOutputStream p = new ByteArrayOutputStream();
            values.forEach(v -> RawTrace.varint(p, v));
            return bytes(field, p.toByteArray());
        }

        /** A repeated uint64 one tag per element, which parsers must accept as well. */
        Message unpacked(int field, List<Long> values) {
            values.forEach(v -> varint(field, v));
            return this;
        }
    }

    static Message message() {
        return new Message();
    }

    static Message intAttr(String name, long v) {
        return message().string(ATTR_NAME, name).varint(ATTR_INT64, v);
    }

    static Message int32Attr(String name, int v) {
        return message().string(ATTR_NAME, name).varint(ATTR_INT32, v);
    }

    static Message stringAttr(String name, String v) {
        return message().string(ATTR_NAME, name).string(ATTR_STRING, v);
    }

    static Message node(long id, String name, int type) {
        return message().varint(NODE_ID, id).string(NODE_NAME, name).varint(NODE_TYPE, type);
    }

    /** Appends {@code m} with its length before it, as Chakra's encode_message does. */
    RawTrace delimited(Message m) {
        byte[] bytes = m.b.toByteArray();
        varint(file, bytes.length);
        file.writeBytes(bytes);
        return this;
    }

    RawTrace raw(byte[] bytes) {
        file.writeBytes(bytes);
        return this;
    }

    byte[] bytes() {
        return file.toByteArray();
    }

    private static void tag(ByteArrayOutputStream b, int field, int wireType) {
        varint(b, ((long) field << 3) | wireType);
    }

    static void varint(ByteArrayOutputStream b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.write((int) v);
    }
}
