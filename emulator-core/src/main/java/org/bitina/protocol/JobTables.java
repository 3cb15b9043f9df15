package org.bitina.protocol;

import org.bitina.bitmap.EndpointSet;
import org.bitina.job.Mode;
import org.bitina.security.ChecksumAudit;
import org.bitina.security.IngressPolicy;
import org.bitina.topology.Bift;
import org.bitina.topology.EncodingSpec;

/**
 * What the control plane installs on a node for one job (A1, F1), in named parts: who the job
 * is ({@link Id}), this node's place in its aggregation tree ({@link Vat}), its multicast
 * forwarding here ({@link Multicast}), the encoding its packets leave with (H2), and what guards
 * it at this node ({@link Guards}). Built with {@link #builder}; every part but the job's
 * identity has a default. The flat accessors ({@link #tenant}, {@link #bift}, ...) read the parts.
 *
 * @param id        the job's identity and bit space
 * @param vat       this node's part in the job's aggregation tree
 * @param multicast this node's multicast forwarding for the job
 * @param encoding  the endpoint-set encoding every packet leaves with (H2)
 * @param guards    the job's ingress policy, keys and quota at this node (S1 to S6)
 */
public record JobTables(Id id, Vat vat, Multicast multicast, EncodingSpec encoding, Guards guards) {

    /**
     * Who the job is.
     *
     * @param name     the job's name in the scenario
     * @param mode     the phase's mode: {@code ina} or the baseline's name ({@code ring}, {@code ps}, ...)
     * @param tenant   the tenant id on the wire
     * @param job      the job id on the wire
     * @param capacity the size of the job's bit space
     */
    public record Id(String name, Mode mode, int tenant, int job, int capacity) {}

    /**
     * This node's part in the job's aggregation tree.
     *
     * @param registered     the node bitmap (A-BM) when this node is a VAT node, else null
     * @param vatParent      where this node's aggregation results go (null at the root)
     * @param root           true at the VAT root: a completed aggregation is multicast back with
     *                       the root's A-BM as the bitmap (A5, F6)
     * @param rootMulticasts whether the root multicasts results (AllReduce) or keeps them (an ACK tree's source)
     * @param timeoutNanos   the completion timeout of the job's aggregations (F5)
     * @param stage          H2: this node's part in a second stage over partitions ({@link SecondStage}), or null
     * @param resultRoute    at the root: who of the multicast bitmap gets a chunk's result ({@link ResultRoute})
     * @param resendHoldNanos L1: how long what this node sent for a chunk (its aggregate up, or at the root the result
     *                       down) answers the retransmissions that come after it ({@link ResendHolds}); 0: every
     *                       retransmission is passed up or answered on its own
     */
    public record Vat(
            EndpointSet registered,
            String vatParent,
            boolean root,
            boolean rootMulticasts,
            long timeoutNanos,
            SecondStage stage,
            ResultRoute resultRoute,
            long resendHoldNanos) {}

    /**
     * This node's multicast forwarding for the job.
     *
     * @param bift        this node's BIFT for the job's bit space (null: no multicast here)
     * @param dataInstall whether reliable-multicast data installs C-BMs here (R2)
     * @param edge        BIER-INC leaf edge role (B6), or null
     */
    public record Multicast(Bift bift, DataInstall dataInstall, EdgeRole edge) {}

    /**
     * What guards the job at this node.
     *
     * @param ingress      the job's ingress policy at this node (S1, S4), or null
     * @param macKey       the job's key for packet tags (S2); null: packets are not authenticated
     * @param auditKey     the job's checksum key for the controller's audit tap at this node's ports (S6,
     *                     {@link ChecksumAudit}); null: no audit. The data plane never reads it
     * @param stateEntries the aggregation entries admission control reserved for the job on this
     *                     switch (S5), its quota here; 0: the device's default quota (with a pool: none)
     * @param pool         the job's share of this switch's pool of entries (T2), or null: the switch has no pool
     */
    public record Guards(IngressPolicy ingress, byte[] macKey, byte[] auditKey, int stateEntries, PoolShare pool) {}

    public String name() {
        return id.name();
    }

    public Mode mode() {
        return id.mode();
    }

    public int tenant() {
        return id.tenant();
    }

    public int job() {
        return id.job();
    }

    public int capacity() {
        return id.capacity();
    }

    public Bift bift() {
        return multicast.bift();
    }

    public DataInstall dataInstall() {
        return multicast.dataInstall();
    }

    public EdgeRole edge() {
        return multicast.edge();
    }

    public EndpointSet registered() {
        return vat.registered();
    }

    public String vatParent() {
        return vat.vatParent();
    }

    public boolean root() {
        return vat.root();
    }

    public boolean rootMulticasts() {
        return vat.rootMulticasts();
    }

    public long timeoutNanos() {
        return vat.timeoutNanos();
    }

    public SecondStage stage() {
        return vat.stage();
    }

    public ResultRoute resultRoute() {
        return vat.resultRoute();
    }

    /** L1: how long a send of this node answers later retransmissions of the same chunk; 0: none does. */
    public long resendHoldNanos() {
        return vat.resendHoldNanos();
    }

    public IngressPolicy ingress() {
        return guards.ingress();
    }

    public byte[] macKey() {
        return guards.macKey();
    }

    public byte[] auditKey() {
        return guards.auditKey();
    }

    public int stateEntries() {
        return guards.stateEntries();
    }

    /** The job's share of this switch's pool (T2), or null: no pool here. */
    public PoolShare pool() {
        return guards.pool();
    }

    /**
     * Whether a reliable-multicast DATA packet installs a C-BM at branch nodes (R2): never
     * (pre-configured ACK tree), always (self-installed), or only retransmissions (the
     * composed policy). A MoE DISPATCH always installs.
     */
    public enum DataInstall {
        NEVER,
        ALWAYS,
        RETRANSMISSIONS
    }

    /** H2: this node's part in the second stage when these are the second stage's tables (not a partition's); else null. */
    public SecondStage secondStage() {
        SecondStage s = vat.stage();
        return s != null && s.stageJob() == id.job() ? s : null;
    }

    public JobKey key() {
        return new JobKey(id.tenant(), id.job());
    }

    public static Builder builder(String name, int tenant, int job, int capacity, long timeoutNanos) {
        return new Builder(name, tenant, job, capacity, timeoutNanos);
    }

    public Builder toBuilder() {
        return new Builder(name(), tenant(), job(), capacity(), timeoutNanos())
                .mode(mode())
                .bift(bift())
                .vatNode(registered(), vatParent())
                .root(root())
                .dataInstall(dataInstall())
                .rootMulticasts(rootMulticasts())
                .encoding(encoding)
                .edge(edge())
                .ingress(ingress())
                .macKey(macKey())
                .stateEntries(stateEntries())
                .pool(pool())
                .auditKey(auditKey())
                .stage(stage())
                .resultRoute(resultRoute())
                .resendHold(resendHoldNanos());
    }

    /** The job's key for packet tags (S2); null: packets are not authenticated. */
    public JobTables withMacKey(byte[] key) {
        return toBuilder().macKey(key).build();
    }

    /** The job's checksum key for the audit tap at this node's ports (S6); null: no audit. */
    public JobTables withAuditKey(byte[] key) {
        return toBuilder().auditKey(key).build();
    }

    /** The job's ingress policy at this node (S1, S4); null: none. */
    public JobTables withIngress(IngressPolicy i) {
        return toBuilder().ingress(i).build();
    }

    /** The job's reservation on this switch (S5). */
    public JobTables withStateEntries(int entries) {
        return toBuilder().stateEntries(entries).build();
    }

    /** The job's grant of {@code entries} from this switch's pool (T2). */
    public JobTables withPool(int entries, PoolShare share) {
        return toBuilder().stateEntries(entries).pool(share).build();
    }

    public JobTables withBift(Bift b) {
        return toBuilder().bift(b).build();
    }

    public JobTables withEncoding(EncodingSpec e) {
        return toBuilder().encoding(e).build();
    }

    /** Collects a job's tables part by part. */
    public static final class Builder {
        private final String name;
        private Mode mode = Mode.INA;
        private final int tenant;
        private final int job;
        private final int capacity;
        private long timeoutNanos;
        private Bift bift;
        private EndpointSet registered;
        private String vatParent;
        private boolean root;
        private DataInstall dataInstall = DataInstall.NEVER;
        private boolean rootMulticasts = true;
        private EncodingSpec encoding = EncodingSpec.FLAT;
        private EdgeRole edge;
        private IngressPolicy ingress;
        private byte[] macKey;
        private int stateEntries;
        private PoolShare pool;
        private byte[] auditKey;
        private SecondStage stage;
        private ResultRoute resultRoute = ResultRoute.NODE_BITMAP;
        private long resendHoldNanos;

        private Builder(String name, int tenant, int job, int capacity, long timeoutNanos) {
            this.name = name;
            this.tenant = tenant;
            this.job = job;
            this.capacity = capacity;
            this.timeoutNanos = timeoutNanos;
        }

        /** The baseline's mode for a baseline phase's tables; {@link Mode#INA} by default. */
        public Builder mode(Mode m) {
            this.mode = m;
            return this;
        }

        public Builder bift(Bift b) {
            this.bift = b;
            return this;
        }

        /** A VAT node: its A-BM and where its results go (null at the root). */
        public Builder vatNode(EndpointSet aBm, String parent) {
            this.registered = aBm;
            this.vatParent = parent;
            return this;
        }

        public Builder root(boolean r) {
            this.root = r;
            return this;
        }

        public Builder timeoutNanos(long t) {
            this.timeoutNanos = t;
            return this;
        }

        public Builder dataInstall(DataInstall d) {
            this.dataInstall = d;
            return this;
        }

        public Builder rootMulticasts(boolean m) {
            this.rootMulticasts = m;
            return this;
        }

        public Builder encoding(EncodingSpec e) {
            this.encoding = e;
            return this;
        }

        public Builder edge(EdgeRole e) {
            this.edge = e;
            return this;
        }

        public Builder ingress(IngressPolicy i) {
            this.ingress = i;
            return this;
        }

        public Builder macKey(byte[] k) {
            this.macKey = k;
            return this;
        }

        public Builder pool(PoolShare p) {
            this.pool = p;
            return this;
        }

        public Builder stateEntries(int e) {
            this.stateEntries = e;
            return this;
        }

        public Builder auditKey(byte[] k) {
            this.auditKey = k;
            return this;
        }

        /** H2: this node's part in a second stage over partitions. */
        public Builder stage(SecondStage s) {
            this.stage = s;
            return this;
        }

        /** At the root: who gets a chunk's result ({@link ResultRoute#NODE_BITMAP} by default). */
        public Builder resultRoute(ResultRoute r) {
            this.resultRoute = r == null ? ResultRoute.NODE_BITMAP : r;
            return this;
        }

        /** L1: how long a send of this node answers later retransmissions of a chunk ({@link ResendHolds}). */
        public Builder resendHold(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("a negative resend hold: " + nanos + " ns");
            }
            this.resendHoldNanos = nanos;
            return this;
        }

        public JobTables build() {
            return new JobTables(
                    new Id(name, mode, tenant, job, capacity),
                    new Vat(
                            registered,
                            vatParent,
                            root,
                            rootMulticasts,
                            timeoutNanos,
                            stage,
                            resultRoute,
                            resendHoldNanos),
                    new Multicast(bift, dataInstall, edge),
                    encoding,
                    new Guards(ingress, macKey, auditKey, stateEntries, pool));
        }
    }
}
