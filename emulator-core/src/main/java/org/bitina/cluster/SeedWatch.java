package org.bitina.cluster;

import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Tells a member started by hand or by a container (E8) that its run is over: a member serves
 * one run, and the run's coordinator is its seed, so when a seed is removed from the cluster
 * there is nothing left for the member to do. A Kubernetes Job's member pods end that way.
 * The seeds are {@link ClusterSettings#seeds}. {@code onRemoved} is called once, with whether the seed left on its own ({@code true}) or
 * was downed as unreachable ({@code false}: the coordinator was lost).
 */
public final class SeedWatch extends AbstractBehavior<SeedWatch.Command> {
    public sealed interface Command {}

    private record Removed(ClusterEvent.MemberRemoved event) implements Command {}

    private final Set<Address> seeds;
    private final Consumer<Boolean> onRemoved;
    private boolean told;

    public static Behavior<Command> create(Set<Address> seeds, Consumer<Boolean> onRemoved) {
        return Behaviors.setup(ctx -> new SeedWatch(ctx, seeds, onRemoved));
    }

    private SeedWatch(ActorContext<Command> ctx, Set<Address> seeds, Consumer<Boolean> onRemoved) {
        super(ctx);
        this.seeds = Set.copyOf(seeds);
        this.onRemoved = onRemoved;
        Cluster.get(ctx.getSystem())
                .subscriptions()
                .tell(Subscribe.create(
                        ctx.messageAdapter(ClusterEvent.MemberRemoved.class, Removed::new),
                        ClusterEvent.MemberRemoved.class));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder().onMessage(Removed.class, this::onRemoved).build();
    }

    private Behavior<Command> onRemoved(Removed r) {
        if (!told && seeds.contains(r.event().member().address())) {
            told = true;
            boolean left = r.event().previousStatus() != MemberStatus.down();
            getContext()
                    .getLog()
                    .info(
                            "seed {} {}: this member's run is over",
                            r.event().member().address(),
                            left ? "left the cluster" : "was downed (lost)");
            onRemoved.accept(left);
        }
        return this;
    }
}
