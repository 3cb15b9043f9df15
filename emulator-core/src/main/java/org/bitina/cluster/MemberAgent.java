package org.bitina.cluster;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.bitina.device.ControlMessage;
import org.bitina.device.DeviceCommand;
import org.bitina.device.FrameSerializer;
import org.bitina.device.HostActor;
import org.bitina.device.MemberTally;
import org.bitina.device.SwitchActor;
import org.bitina.security.CommandGate;
import org.bitina.time.WindowBarrier;
import org.bitina.usecase.DriverReport;
import org.bitina.usecase.References;

/**
 * One per cluster member (E2): registers with the receptionist and spawns the devices the
 * coordinator places on this member. The single-JVM run has one, like any other member.
 * It takes devices and a halt only from its run's coordinator ({@link CommandGate} says how).
 */
public final class MemberAgent {
    public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "bitina-member");

    public sealed interface Command extends ControlMessage
            permits SpawnDevices, Halt, Window, DeviceAdvanced, Frames, Vouched, ClaimExpired {}

    /**
     * Spawn these devices for run {@code run} and say where they are; taken only once the
     * coordinator {@code vouch} confirms it gave {@code token} to this member ({@link CommandGate}).
     *
     * @param member  this member's index in the run (the virtual clock counts messages between members)
     * @param virtual the devices run on the virtual clock (else on the wall clock)
     * @param token   this member's token for the run, drawn by the coordinator
     * @param vouch   the coordinator's: asked whether the token is its (it must be in this JVM or at a seed)
     * @param peers   every member's agent, by member index: where this member's frames for their devices go
     */
    public record SpawnDevices(
            String run,
            List<String> switches,
            List<String> hosts,
            int maxEntriesPerJob,
            long tombstoneNanos,
            ActorRef<Spawned> replyTo,
            int member,
            int members,
            boolean virtual,
            byte[] token,
            ActorRef<Vouch> vouch,
            List<ActorRef<Command>> peers)
            implements Command {}

    /** To the coordinator: did you give {@code token} to {@code agent}? Answered to the agent under {@code nonce}. */
    public record Vouch(byte[] token, byte[] nonce, ActorRef<Command> agent) implements ControlMessage {}

    /** The coordinator's answer to a {@link Vouch}. */
    public record Vouched(byte[] nonce, boolean issued) implements Command {}

    /** A {@link Vouch} not answered in time (this agent's timer). */
    public record ClaimExpired(byte[] nonce) implements Command {}

    /** What the coordinator keeps of a member: its agent and the token that commands it. */
    public record Handle(ActorRef<Command> agent, byte[] token) {
        public void tell(Command c) {
            agent.tell(c);
        }

        /** The fault plan's member-loss, with the token that makes the member take it. */
        public void halt() {
            agent.tell(new Halt(token));
        }
    }

    /**
     * Virtual clock: the devices of this member with something due before {@code end} process the
     * window [start, end), then the member reports once; {@code everyDevice}: all of them (the
     * coordinator told them something since the last window, so what is due where is not known).
     */
    public record Window(long window, long start, long end, boolean everyDevice, ActorRef<WindowReport> replyTo)
            implements Command {}

    /**
     * Virtual clock: what member {@code from}'s devices sent this member's in a window, in one
     * message per member pair (or a few, each well inside Artery's largest frame); each
     * device's frames to one neighbour in the order it sent them. Bound to {@link MailSerializer}.
     */
    public record Frames(int from, List<MemberTally.Parcel> parcels) implements Command {}

    /** A device of this member reporting on a window (local: the agent's adapter). */
    public record DeviceAdvanced(DeviceCommand.Advanced advanced) implements Command {}

    /**
     * A member's devices are done with a window ({@code late}: not the window's report but an
     * addition to it: it received more frames from other members since it reported, or while it
     * sat a window out; or driver reports sent ahead of the report, a few at a time, so that no
     * message exceeds Artery's largest frame); see {@link WindowBarrier}.
     *
     * @param next the earliest time anything is due on this member's devices
     */
    public record WindowReport(
            int member,
            long window,
            Traffic traffic,
            long next,
            List<DeviceCommand.DriverDone> done,
            boolean late,
            List<String> problems,
            long events,
            long busyNanos)
            implements ControlMessage {}

    /**
     * Messages of frames between members, counted since the devices were spawned: sent to each
     * member and received from all; and the earliest arrival among the frames just sent to each
     * member (Long.MAX_VALUE: none), so the coordinator knows when those members have work.
     */
    public record Traffic(long[] sentTo, long received, long[] arrivals) {}

    public record Spawned(String member, Map<String, ActorRef<DeviceCommand>> devices) implements ControlMessage {}

    /** The fault plan's member-loss (E4): stop as a killed JVM does, without leaving the cluster; only with the coordinator's token. */
    public record Halt(byte[] token) implements Command {}

    /** How long a spawn claim waits for the coordinator's answer before it is dropped. */
    static final Duration VOUCH_TIMEOUT = Duration.ofSeconds(30);

    /** The coordinator's side: answers whether it gave a token to an agent ({@code issued}: agent to its token). */
    public static Behavior<Vouch> voucher(Map<ActorRef<Command>, byte[]> issued) {
        Map<ActorRef<Command>, byte[]> tokens = Map.copyOf(issued);
        return Behaviors.receive((ctx, v) -> {
            byte[] t = tokens.get(v.agent());
            v.agent()
                    .tell(new Vouched(
                            v.nonce(), t != null && v.token() != null && MessageDigest.isEqual(t, v.token())));
            return Behaviors.same();
        });
    }

    private MemberAgent() {}

    /** A member whose member-loss fault halts its JVM at once, as kill -9 does. */
    public static Behavior<Command> create() {
        return create(() -> Runtime.getRuntime().halt(137));
    }

    /** @param halt what member-loss does (tests with several members in one JVM stop only this member's ActorSystem) */
    public static Behavior<Command> create(Runnable halt) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
            String member = ctx.getSystem().address().toString();
            ActorRef<DeviceCommand.Advanced> advanced =
                    ctx.messageAdapter(DeviceCommand.Advanced.class, DeviceAdvanced::new);
            Windows windows = new Windows();
            CommandGate<SpawnDevices> gate = new CommandGate<>();
            Set<Address> issuers = trustedIssuers(ctx.getSystem());
            SecureRandom random = new SecureRandom();
            return Behaviors.receive(Command.class)
                    .onMessage(Window.class, m -> {
                        windows.open(m, advanced, ctx);
                        return Behaviors.same();
                    })
                    .onMessage(DeviceAdvanced.class, m -> {
                        windows.advanced(m.advanced(), ctx);
                        return Behaviors.same();
                    })
                    .onMessage(Frames.class, m -> {
                        windows.frames(m, ctx);
                        return Behaviors.same();
                    })
                    .onMessage(SpawnDevices.class, m -> {
                        Address at = m.vouch() == null ? null : m.vouch().path().address();
                        if (at == null || !(at.hasLocalScope() || issuers.contains(at))) {
                            refuse(
                                    ctx,
                                    gate,
                                    member,
                                    "devices of run " + m.run() + " from " + at + ", neither this JVM nor a seed");
                            return Behaviors.same();
                        }
                        byte[] nonce = new byte[16];
                        random.nextBytes(nonce);
                        if (!gate.claim(nonce, m.token(), m)) {
                            refuse(
                                    ctx,
                                    gate,
                                    member,
                                    "devices of run " + m.run()
                                            + (gate.isBound() ? ": it runs a run already" : ": too many claims"));
                            return Behaviors.same();
                        }
                        timers.startSingleTimer(
                                HexFormat.of().formatHex(nonce), new ClaimExpired(nonce), VOUCH_TIMEOUT);
                        m.vouch().tell(new Vouch(m.token(), nonce, ctx.getSelf()));
                        return Behaviors.same();
                    })
                    .onMessage(Vouched.class, v -> {
                        SpawnDevices m = gate.vouched(v.nonce(), v.issued());
                        if (m == null) {
                            refuse(ctx, gate, member, "devices its coordinator did not vouch for");
                            return Behaviors.same();
                        }
                        timers.cancelAll();
                        Map<String, ActorRef<DeviceCommand>> spawned = spawn(ctx, m, windows);
                        ctx.getLog().info("member {} runs {} devices of run {}", member, spawned.size(), m.run());
                        m.replyTo().tell(new Spawned(member, spawned));
                        return Behaviors.same();
                    })
                    .onMessage(ClaimExpired.class, e -> {
                        if (gate.expire(e.nonce())) {
                            refuse(
                                    ctx,
                                    gate,
                                    member,
                                    "devices whose coordinator did not answer within " + VOUCH_TIMEOUT.toSeconds()
                                            + " s");
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Halt.class, h -> {
                        if (!gate.authorizes(h.token())) {
                            refuse(ctx, gate, member, "a halt without this run's coordinator's token");
                            return Behaviors.same();
                        }
                        ctx.getLog().warn("member {} halts (member-loss fault)", member);
                        halt.run();
                        return Behaviors.same();
                    })
                    .onSignal(PostStop.class, s -> {
                        if (gate.refused() > 1) {
                            ctx.getLog().warn("member {} refused {} commands in all", member, gate.refused());
                        }
                        return Behaviors.same();
                    })
                    .build();
        }));
    }

    /** Where a coordinator may be: a seed this member was started with (its own JVM's are local). */
    private static Set<Address> trustedIssuers(ActorSystem<?> system) {
        return ClusterSettings.seeds(system);
    }

    /** A refused command is never acted on: counted, and logged at WARN the first time (a flood does not flood the log). */
    private static void refuse(ActorContext<Command> ctx, CommandGate<SpawnDevices> gate, String member, String what) {
        long n = gate.refuse();
        if (n == 1) {
            ctx.getLog()
                    .warn(
                            "member {} refused {} (only the run's coordinator commands; later refusals are counted)",
                            member,
                            what);
        } else {
            ctx.getLog().debug("member {} refused {} ({} so far)", member, what, n);
        }
    }

    private static Map<String, ActorRef<DeviceCommand>> spawn(
            ActorContext<Command> ctx, SpawnDevices m, Windows windows) {
        Map<String, ActorRef<DeviceCommand>> spawned = new LinkedHashMap<>();
        // what this member's hosts share for this run (references, model weights)
        References references = new References();
        // virtual clock: what the devices did in a window, shared with this agent (they run in its JVM)
        List<String> names = new ArrayList<>(m.switches());
        names.addAll(m.hosts());
        MemberTally tally = m.virtual() ? new MemberTally(m.members(), names) : null;
        for (String s : m.switches()) {
            spawned.put(
                    s,
                    ctx.spawn(
                            (tally != null
                                    ? SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos(), tally)
                                    : SwitchActor.create(s, m.maxEntriesPerJob(), m.tombstoneNanos())),
                            "dev-" + m.run() + "-" + s));
        }
        for (String h : m.hosts()) {
            spawned.put(
                    h,
                    ctx.spawn(
                            (tally != null
                                    ? HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), tally, references)
                                    : HostActor.create(h, m.maxEntriesPerJob(), m.tombstoneNanos(), references)),
                            "dev-" + m.run() + "-" + h));
        }
        windows.devices(m.member(), m.members(), spawned, tally, m.peers());
        return spawned;
    }

    /**
     * The member's part of the virtual clock's barrier: one window message in, one to each
     * device with something due in it, one report out when the last of them is done, so the
     * coordinator's cost grows with members, not devices. The devices add what they did to the
     * member's {@link MemberTally}; the last one tells this agent. Frames for other members'
     * devices wait in the tally until then and leave in one message per member (a window's
     * frames are all due after its end, so none is late for being held to it).
     */
    private static final class Windows {
        /** Well inside Artery's largest frame (256 KiB by default), as a device's own batches are. */
        private static final int MAX_MESSAGE_BYTES = 128 * 1024;

        private int member;
        private Map<String, ActorRef<DeviceCommand>> devices = Map.of();
        private MemberTally tally;
        private List<ActorRef<Command>> peers = List.of();
        private long[] sent = new long[0];
        private long received;
        private long unknownDevice;
        private Window open;
        /** Between a window's message and this member's report on it. */
        private boolean running;

        void devices(
                int member,
                int members,
                Map<String, ActorRef<DeviceCommand>> spawned,
                MemberTally tally,
                List<ActorRef<Command>> peers) {
            this.member = member;
            this.devices = new LinkedHashMap<>(spawned);
            this.tally = tally;
            this.peers = peers == null ? List.of() : List.copyOf(peers);
            this.sent = new long[Math.max(1, members)];
            this.received = 0;
            open = null;
            running = false;
        }

        void open(Window w, ActorRef<DeviceCommand.Advanced> replyTo, ActorContext<Command> ctx) {
            if (tally == null) {
                return; // devices on the real clock: no windows
            }
            open = w;
            running = true;
            if (w.everyDevice()) {
                tally.unknown();
            }
            // every due device is taken (its noted arrivals cleared) before any of them is told to run
            List<String> due = tally.takeDue(w.end());
            tally.open(due.size());
            if (due.isEmpty()) {
                report(ctx);
                return;
            }
            DeviceCommand.Advance a = new DeviceCommand.Advance(w.window(), w.start(), w.end(), replyTo);
            for (String d : due) {
                devices.get(d).tell(a);
            }
        }

        void advanced(DeviceCommand.Advanced a, ActorContext<Command> ctx) {
            if (open != null && running && a.window() == open.window()) {
                report(ctx);
            }
        }

        /** Another member's frames for this member's devices: to each in order, and heard of by the barrier. */
        void frames(Frames f, ActorContext<Command> ctx) {
            received++;
            for (MemberTally.Parcel p : f.parcels()) {
                ActorRef<DeviceCommand> to = devices.get(p.to());
                if (to == null || p.frames().isEmpty()) {
                    // not a device of this member: counted and dropped, never a crash
                    unknownDevice++;
                    ctx.getLog()
                            .warn(
                                    "member {} dropped frames from member {} for {}, not one of its devices ({} so far)",
                                    member,
                                    f.from(),
                                    p.to(),
                                    unknownDevice);
                    continue;
                }
                long earliest = Long.MAX_VALUE;
                for (DeviceCommand.FrameIn in : p.frames()) {
                    earliest = Math.min(earliest, in.frame().vt());
                }
                to.tell(p.frames().size() == 1 ? p.frames().get(0) : new DeviceCommand.FrameBatch(p.frames()));
                if (tally != null) {
                    tally.arriving(p.to(), earliest);
                }
            }
            if (open != null && !running) {
                // reported already, or sat this window out: the barrier waits for exactly these counts
                open.replyTo()
                        .tell(new WindowReport(
                                member,
                                open.window(),
                                new Traffic(null, received, null),
                                Long.MAX_VALUE,
                                List.of(),
                                true,
                                List.of(),
                                0,
                                0));
            }
        }

        private void report(ActorContext<Command> ctx) {
            running = false;
            sendMail(ctx);
            // a phase's last window may hold every worker's report (a k=8 worker's is 8 KiB of chunk times)
            List<DeviceCommand.DriverDone> done = tally.done();
            int from = 0;
            int bytes = 0;
            for (int i = 0; i < done.size(); i++) {
                int size = approximateBytes(done.get(i));
                if (bytes + size > MAX_MESSAGE_BYTES && i > from) {
                    open.replyTo()
                            .tell(new WindowReport(
                                    member,
                                    open.window(),
                                    new Traffic(null, received, null),
                                    Long.MAX_VALUE,
                                    List.copyOf(done.subList(from, i)),
                                    true,
                                    List.of(),
                                    0,
                                    0));
                    from = i;
                    bytes = 0;
                }
                bytes += size;
            }
            open.replyTo()
                    .tell(new WindowReport(
                            member,
                            open.window(),
                            new Traffic(sent.clone(), received, tally.takeMailArrivals()),
                            tally.next(),
                            List.copyOf(done.subList(from, done.size())),
                            false,
                            tally.problems(),
                            tally.events(),
                            tally.busyNanos()));
        }

        /** The window's frames for each other member, in as few messages as fit. */
        private void sendMail(ActorContext<Command> ctx) {
            for (int m = 0; m < sent.length; m++) {
                if (m == member) {
                    continue;
                }
                List<MemberTally.Parcel> parcels = tally.takeMail(m);
                if (m >= peers.size() && !parcels.isEmpty()) {
                    // spawned without that member's agent (never by a coordinator): dropped and said, not a crash
                    unknownDevice += parcels.size();
                    ctx.getLog().warn("member {} has frames for member {} but not its agent", member, m);
                    continue;
                }
                for (List<MemberTally.Parcel> letter : letters(parcels, MAX_MESSAGE_BYTES)) {
                    post(m, letter);
                }
            }
        }

        /**
         * The parcels for one member as messages of at most {@code max} serialized bytes, in order: a
         * parcel too large for one (a window of 256 frames to one device) goes in pieces, each for the
         * same device, so that no message exceeds Artery's frame size and is dropped (the barrier would
         * wait for it forever). Only a single frame larger than {@code max} goes alone, as it is.
         */
        static List<List<MemberTally.Parcel>> letters(List<MemberTally.Parcel> parcels, int max) {
            List<List<MemberTally.Parcel>> out = new ArrayList<>();
            List<MemberTally.Parcel> letter = new ArrayList<>();
            int bytes = 0;
            for (MemberTally.Parcel p : parcels) {
                int head = FrameSerializer.utf(p.to()) + 4;
                List<DeviceCommand.FrameIn> piece = new ArrayList<>();
                int pieceBytes = head;
                for (DeviceCommand.FrameIn f : p.frames()) {
                    int size = FrameSerializer.size(f);
                    if (bytes + pieceBytes + size > max && (!piece.isEmpty() || !letter.isEmpty())) {
                        if (!piece.isEmpty()) {
                            letter.add(new MemberTally.Parcel(p.to(), List.copyOf(piece)));
                            piece.clear();
                            pieceBytes = head;
                        }
                        out.add(List.copyOf(letter));
                        letter.clear();
                        bytes = 0;
                    }
                    piece.add(f);
                    pieceBytes += size;
                }
                if (!piece.isEmpty() || p.frames().isEmpty()) {
                    letter.add(piece.isEmpty() ? p : new MemberTally.Parcel(p.to(), List.copyOf(piece)));
                    bytes += pieceBytes;
                }
            }
            if (!letter.isEmpty()) {
                out.add(List.copyOf(letter));
            }
            return out;
        }

        /** A generous bound on a driver report's CBOR size: its per-unit times and lists dominate. */
        private static int approximateBytes(DeviceCommand.DriverDone d) {
            DriverReport r = d.report();
            int n = 1024 + 9 * (r.unitVt() == null ? 0 : r.unitVt().length);
            n += 64 * (count(r.partialChunks()) + count(r.mismatches()) + count(r.dropped()));
            n += 64 * (r.stats() == null ? 0 : r.stats().size());
            return n;
        }

        private static int count(List<?> l) {
            return l == null ? 0 : l.size();
        }

        private void post(int m, List<MemberTally.Parcel> parcels) {
            peers.get(m).tell(new Frames(member, List.copyOf(parcels)));
            sent[m]++;
        }
    }
}
