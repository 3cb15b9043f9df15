-- Wireshark dissector for bitina's captures (bitina run FILE --pcap out.pcapng).
--
-- A frame is Ethernet, then BIER as RFC 8296 lays it out (ethertype 0xAB37), then bitina's INA
-- header and payload exactly as its codec writes them (emulator-core PacketCodec). Load it with
--   wireshark -X lua_script:tools/wireshark/bitina.lua fig1.pcapng
--   tshark    -X lua_script:tools/wireshark/bitina.lua -r fig1.pcapng -Y 'ina.type == 2'
-- or copy it to ~/.local/lib/wireshark/plugins/. Wireshark before 4.4 has no BIER dissector;
-- on a newer one this script's BIER takes ethertype 0xAB37 too, so that the INA header follows it.
-- Every bitmap is printed as the seeds print them: [b0 b1 ... bN-1], endpoint 0 first.

local bier = Proto("bitina_bier", "BIER (RFC 8296, bitina)")
local ina = Proto("ina", "INA header (bitina)")

local BIER_FIXED = 12

local bf = {
    bift_id = ProtoField.uint32("bitina_bier.bift_id", "BIFT-id", base.DEC,
        { [1] = "regular BIFT", [2] = "INC-forward BIFT", [3] = "INC-reverse BIFT" }),
    tc = ProtoField.uint8("bitina_bier.tc", "TC", base.DEC),
    s = ProtoField.uint8("bitina_bier.s", "S", base.DEC),
    ttl = ProtoField.uint8("bitina_bier.ttl", "TTL", base.DEC),
    nibble = ProtoField.uint8("bitina_bier.nibble", "Nibble", base.DEC),
    ver = ProtoField.uint8("bitina_bier.ver", "Version", base.DEC),
    bsl = ProtoField.uint16("bitina_bier.bsl", "BSL (bits)", base.DEC),
    entropy = ProtoField.uint32("bitina_bier.entropy", "Entropy (job or communicator)", base.DEC),
    oam = ProtoField.uint8("bitina_bier.oam", "OAM", base.DEC),
    dscp = ProtoField.uint8("bitina_bier.dscp", "DSCP", base.DEC),
    proto = ProtoField.uint8("bitina_bier.proto", "Proto", base.DEC, { [62] = "INA (bitina)" }),
    bfir_id = ProtoField.uint16("bitina_bier.bfir_id", "BFIR-id", base.DEC),
    bitstring = ProtoField.bytes("bitina_bier.bitstring", "BitString"),
    bfr_ids = ProtoField.string("bitina_bier.bfr_ids", "BFR-ids set"),
}
bier.fields = { bf.bift_id, bf.tc, bf.s, bf.ttl, bf.nibble, bf.ver, bf.bsl, bf.entropy, bf.oam, bf.dscp,
    bf.proto, bf.bfir_id, bf.bitstring, bf.bfr_ids }

local TYPES = { [1] = "CONTRIBUTION", [2] = "RESULT", [3] = "DISPATCH", [4] = "COMBINE", [5] = "DATA",
    [6] = "ACK", [7] = "INC_FORWARD", [8] = "INC_REVERSE", [9] = "UNICAST" }
local ENCODINGS = { [0] = "flat", [1] = "hierarchical", [2] = "node list" }
local ELEMENTS = { [0] = "none", [1] = "float32", [2] = "int32" }
local OPS = { [0] = "none", [1] = "sum", [2] = "product", [3] = "max", [4] = "min" }
local DIRS = { [0] = "agg", [1] = "mcast" }

local f = {
    version = ProtoField.uint8("ina.version", "Version", base.DEC),
    dir = ProtoField.string("ina.dir", "Direction"),
    enc = ProtoField.uint8("ina.enc", "Encoding", base.DEC, ENCODINGS),
    type = ProtoField.uint8("ina.type", "Packet type", base.DEC, TYPES),
    type_name = ProtoField.string("ina.type_name", "Packet type name"),
    flags = ProtoField.uint8("ina.flags", "Flags", base.HEX),
    flag_partial = ProtoField.bool("ina.flags.partial", "Partial", 8, nil, 0x01),
    flag_retransmit = ProtoField.bool("ina.flags.retransmit", "Retransmission", 8, nil, 0x02),
    flag_auth = ProtoField.bool("ina.flags.auth", "Authentication tag", 8, nil, 0x04),
    flag_last = ProtoField.bool("ina.flags.last", "Last", 8, nil, 0x08),
    flag_late = ProtoField.bool("ina.flags.late", "Late", 8, nil, 0x10),
    flag_provenance = ProtoField.bool("ina.flags.provenance", "Provenance follows", 8, nil, 0x20),
    flag_ce = ProtoField.bool("ina.flags.ce", "Congestion experienced (on an ACK: CNP)", 8, nil, 0x40),
    etype = ProtoField.uint8("ina.etype", "Element type", base.DEC, ELEMENTS),
    op = ProtoField.uint8("ina.op", "Reduction op", base.DEC, OPS),
    tenant = ProtoField.uint16("ina.tenant", "Tenant", base.DEC),
    set_param = ProtoField.uint16("ina.set_param", "Set parameter", base.DEC),
    job = ProtoField.uint32("ina.job", "Job", base.DEC),
    seq = ProtoField.uint64("ina.seq", "Sequence / chunk / token", base.DEC),
    source = ProtoField.int32("ina.source", "Source endpoint", base.DEC),
    dest = ProtoField.int32("ina.dest", "Destination endpoint", base.DEC),
    capacity = ProtoField.uint32("ina.capacity", "Set capacity N", base.DEC),
    entropy = ProtoField.uint32("ina.entropy", "Entropy (communicator)", base.DEC),
    count = ProtoField.uint32("ina.count", "Payload elements", base.DEC),
    bitmap = ProtoField.string("ina.bitmap", "Endpoint set"),
    provenance = ProtoField.string("ina.provenance", "Provenance"),
    values = ProtoField.string("ina.values", "Payload (first values)"),
    tag = ProtoField.bytes("ina.tag", "Authentication tag"),
    length = ProtoField.uint32("ina.length", "INA packet bytes", base.DEC),
}
ina.fields = { f.version, f.dir, f.enc, f.type, f.type_name, f.flags, f.flag_partial, f.flag_retransmit,
    f.flag_auth, f.flag_last, f.flag_late, f.flag_provenance, f.flag_ce, f.etype, f.op, f.tenant, f.set_param, f.job,
    f.seq, f.source, f.dest, f.capacity, f.entropy, f.count, f.bitmap, f.provenance, f.values, f.tag, f.length }

-- bit i (0 = the first byte's top bit) of a ByteArray
local function bit_at(bytes, i)
    local byte = bytes:get_index(math.floor(i / 8))
    return bit32.band(bit32.rshift(byte, 7 - (i % 8)), 1)
end

local function read_bits(bytes, pos, n)
    local v = 0
    for k = 0, n - 1 do
        v = v * 2 + bit_at(bytes, pos + k)
    end
    return v
end

local function index_bits(capacity)
    local b = 0
    while bit32.lshift(1, b) < capacity do
        b = b + 1
    end
    return math.max(1, b)
end

-- the set's bits as the seeds print them, and the body's length in bytes
local function read_set(tvb, off, enc, param, capacity)
    local bits = {}
    for i = 1, capacity do
        bits[i] = "0"
    end
    local body_bits
    local avail = tvb:len() - off
    if enc == 0 then
        body_bits = capacity
    elseif enc == 1 then
        local blocks = math.floor((capacity + param - 1) / param)
        local bytes = tvb(off, math.min(avail, math.floor((blocks + 7) / 8))):bytes()
        local selected = 0
        for k = 0, blocks - 1 do
            selected = selected + bit_at(bytes, k)
        end
        body_bits = blocks + selected * param
    else
        body_bits = param * index_bits(capacity)
    end
    local len = math.floor((body_bits + 7) / 8)
    if len == 0 then
        return "[" .. table.concat(bits) .. "]", 0
    end
    local bytes = tvb(off, len):bytes()
    if enc == 0 then
        for i = 0, capacity - 1 do
            if bit_at(bytes, i) == 1 then bits[i + 1] = "1" end
        end
    elseif enc == 1 then
        local blocks = math.floor((capacity + param - 1) / param)
        local pos = blocks
        for k = 0, blocks - 1 do
            if bit_at(bytes, k) == 1 then
                for j = 0, param - 1 do
                    local i = k * param + j
                    if i < capacity and bit_at(bytes, pos + j) == 1 then bits[i + 1] = "1" end
                end
                pos = pos + param
            end
        end
    else
        local w = index_bits(capacity)
        for k = 0, param - 1 do
            local i = read_bits(bytes, k * w, w)
            if i < capacity then bits[i + 1] = "1" end
        end
    end
    return "[" .. table.concat(bits) .. "]", len
end

function ina.dissector(tvb, pinfo, tree)
    if tvb:len() < 40 then
        return 0
    end
    pinfo.cols.protocol = "INA"
    local t = tree:add(ina, tvb(), "INA header (bitina)")
    local version = tvb(0, 1):bitfield(0, 4)
    local d = tvb(0, 1):bitfield(4, 1)
    local enc = tvb(0, 1):bitfield(5, 3)
    local ptype = tvb(1, 1):uint()
    local flags = tvb(2, 1):uint()
    local etype = tvb(3, 1):bitfield(0, 4)
    local param = tvb(6, 2):uint()
    local capacity = tvb(28, 4):uint()
    local count = tvb(36, 4):uint()
    if capacity < 1 or capacity > 1048576 then
        -- the codec's limit (EndpointSet.MAX_CAPACITY): not a packet bitina wrote
        t:add_expert_info(PI_MALFORMED, PI_ERROR, "set capacity " .. capacity .. " outside 1..2^20")
        return 0
    end
    t:add(f.version, tvb(0, 1), version)
    t:add(f.dir, tvb(0, 1), DIRS[d])
    t:add(f.enc, tvb(0, 1), enc)
    t:add(f.type, tvb(1, 1))
    t:add(f.type_name, tvb(1, 1), TYPES[ptype] or tostring(ptype))
    local ft = t:add(f.flags, tvb(2, 1))
    ft:add(f.flag_partial, tvb(2, 1))
    ft:add(f.flag_retransmit, tvb(2, 1))
    ft:add(f.flag_auth, tvb(2, 1))
    ft:add(f.flag_last, tvb(2, 1))
    ft:add(f.flag_late, tvb(2, 1))
    ft:add(f.flag_provenance, tvb(2, 1))
    ft:add(f.flag_ce, tvb(2, 1))
    t:add(f.etype, tvb(3, 1), etype)
    t:add(f.op, tvb(3, 1), tvb(3, 1):bitfield(4, 4))
    t:add(f.tenant, tvb(4, 2))
    t:add(f.set_param, tvb(6, 2))
    t:add(f.job, tvb(8, 4))
    t:add(f.seq, tvb(12, 8))
    t:add(f.source, tvb(20, 4))
    t:add(f.dest, tvb(24, 4))
    t:add(f.capacity, tvb(28, 4))
    t:add(f.entropy, tvb(32, 4))
    t:add(f.count, tvb(36, 4))
    local off = 40
    local set, len = read_set(tvb, off, enc, param, capacity)
    t:add(f.bitmap, tvb(off, math.max(len, 0)), set)
    off = off + len
    if bit32.band(flags, 0x20) ~= 0 then
        local m = tvb(off, 4):uint()
        local prov, plen = read_set(tvb, off + 4, 0, 0, m)
        t:add(f.provenance, tvb(off, 4 + plen), prov)
        off = off + 4 + plen
    end
    local payload = count * ((etype == 0) and 0 or 4)
    if payload > 0 then
        local shown = {}
        for k = 0, math.min(count, 8) - 1 do
            local r = tvb(off + 4 * k, 4)
            shown[#shown + 1] = (etype == 1) and string.format("%g", r:float()) or tostring(r:int())
        end
        t:add(f.values, tvb(off, payload), table.concat(shown, " ") .. (count > 8 and " ..." or ""))
        off = off + payload
    end
    if bit32.band(flags, 0x04) ~= 0 then
        t:add(f.tag, tvb(off, 16))
        off = off + 16
    end
    t:add(f.length, tvb(), off)
    pinfo.cols.info = string.format("%s %s t%d/j%d seq=%s %s", TYPES[ptype] or tostring(ptype), DIRS[d],
        tvb(4, 2):uint(), tvb(8, 4):uint(), tostring(tvb(12, 8):uint64()),
        (#set <= 66) and set or (set:sub(1, 64) .. "...]"))
    return off
end

function bier.dissector(tvb, pinfo, tree)
    if tvb:len() < BIER_FIXED then
        return 0
    end
    pinfo.cols.protocol = "BIER"
    local code = tvb(5, 1):bitfield(0, 4)
    local bsl = bit32.lshift(1, code + 5)
    local nbytes = bsl / 8
    local t = tree:add(bier, tvb(0, BIER_FIXED + nbytes), "BIER (RFC 8296)")
    t:add(bf.bift_id, tvb(0, 3), tvb(0, 4):bitfield(0, 20))
    t:add(bf.tc, tvb(2, 1), tvb(0, 4):bitfield(20, 3))
    t:add(bf.s, tvb(2, 1), tvb(0, 4):bitfield(23, 1))
    t:add(bf.ttl, tvb(3, 1))
    t:add(bf.nibble, tvb(4, 1), tvb(4, 1):bitfield(0, 4))
    t:add(bf.ver, tvb(4, 1), tvb(4, 1):bitfield(4, 4))
    t:add(bf.bsl, tvb(5, 1), bsl)
    t:add(bf.entropy, tvb(5, 3), tvb(4, 4):bitfield(12, 20))
    t:add(bf.oam, tvb(8, 1), tvb(8, 1):bitfield(0, 2))
    t:add(bf.dscp, tvb(8, 2), tvb(8, 2):bitfield(4, 6))
    t:add(bf.proto, tvb(9, 1), tvb(9, 1):bitfield(2, 6))
    t:add(bf.bfir_id, tvb(10, 2))
    if tvb:len() < BIER_FIXED + nbytes then
        return tvb:len()
    end
    t:add(bf.bitstring, tvb(BIER_FIXED, nbytes))
    -- BFR-id k is bit k-1 counted from the right of the last byte (RFC 8279)
    local bytes = tvb(BIER_FIXED, nbytes):bytes()
    local ids = {}
    for k = 1, bsl do
        if bit_at(bytes, bsl - k) == 1 then ids[#ids + 1] = tostring(k) end
    end
    t:add(bf.bfr_ids, tvb(BIER_FIXED, nbytes), "{" .. table.concat(ids, ",") .. "}")
    if tvb(9, 1):bitfield(2, 6) == 62 then
        ina.dissector(tvb(BIER_FIXED + nbytes):tvb(), pinfo, tree)
    end
    return tvb:len()
end

DissectorTable.get("ethertype"):add(0xAB37, bier)
