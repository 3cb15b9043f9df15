package org.bitina.device;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.bitina.bitmap.Encoding;
import org.bitina.bitmap.EndpointSet;
import org.bitina.bitmap.EndpointSets;
import org.bitina.bitmap.FlatBitmap;
import org.bitina.bitmap.HierarchicalBitmap;
import org.bitina.bitmap.NodeList;
import org.bitina.protocol.JobKey;
import org.bitina.topology.Bift;
import org.bitina.topology.BitSpace;
import org.bitina.topology.Link;
import org.bitina.topology.Node;
import org.bitina.topology.Routing;
import org.bitina.topology.Topology;
import org.bitina.usecases.UseCases;

/**
 * Jackson for the protocol's value classes that are not records, so control messages cross
 * JVMs as CBOR (registered in application.conf). Each travels as a small record of what it is
 * made from; a routing as its topology and what is down, recomputed on arrival once per JVM
 * (routing is deterministic, so every JVM computes the same tables).
 */
public final class BitinaJacksonModule extends SimpleModule {

    record SetForm(Encoding encoding, int capacity, int blockSize, int[] indices) {}

    record SpaceForm(List<String> endpoints, Map<String, String> nodeOf) {}

    record TopologyForm(List<Node> nodes, List<Link> links) {}

    record RoutingForm(TopologyForm topology, Set<Link> downLinks, Set<String> downNodes) {}

    record BiftForm(String node, List<String> neighborOfBit, int[] local, int[] unreachable) {}

    /** Routings built from what arrived, by value: a JVM computes each once however many devices it hosts. */
    private static final Map<RoutingForm, Routing> ROUTINGS =
            Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<RoutingForm, Routing> eldest) {
                    return size() > 16;
                }
            });

    public BitinaJacksonModule() {
        super("bitina");
        as(EndpointSet.class, SetForm.class, BitinaJacksonModule::form, BitinaJacksonModule::set);
        as(FlatBitmap.class, SetForm.class, BitinaJacksonModule::form, f -> set(f).toFlat());
        as(NodeList.class, SetForm.class, BitinaJacksonModule::form, f -> set(f).toNodeList());
        as(HierarchicalBitmap.class, SetForm.class, BitinaJacksonModule::form, f -> (HierarchicalBitmap) set(f));
        as(
                BitSpace.class,
                SpaceForm.class,
                s -> new SpaceForm(s.endpoints(), s.nodeOf()),
                f -> new BitSpace(f.endpoints(), f.nodeOf()));
        as(Topology.class, TopologyForm.class, BitinaJacksonModule::form, f -> new Topology(f.nodes(), f.links()));
        as(
                Routing.class,
                RoutingForm.class,
                r -> new RoutingForm(form(r.topology()), r.downLinks(), r.downNodes()),
                f -> ROUTINGS.computeIfAbsent(
                        f,
                        k -> Routing.compute(
                                new Topology(k.topology().nodes(), k.topology().links()),
                                k.downLinks(),
                                k.downNodes())));
        as(Bift.class, BiftForm.class, BitinaJacksonModule::form, BitinaJacksonModule::bift);
        // each use case's driver specs, named by their simple class name
        UseCases.driverTypes().forEach(this::registerSubtypes);
        // and their report parts, named the same way
        UseCases.reportTypes().forEach(this::registerSubtypes);
        // map keys are written with toString()
        addKeyDeserializer(JobKey.class, new KeyDeserializer() {
            @Override
            public Object deserializeKey(String key, DeserializationContext ctxt) {
                return JobKey.parse(key);
            }
        });
    }

    private static SetForm form(EndpointSet s) {
        int block = s instanceof HierarchicalBitmap h ? h.blockSize() : 0;
        return new SetForm(s.encoding(), s.capacity(), block, s.indices());
    }

    private static EndpointSet set(SetForm f) {
        return EndpointSets.of(f.encoding(), f.capacity(), f.blockSize(), f.indices());
    }

    private static TopologyForm form(Topology t) {
        return new TopologyForm(t.nodes(), t.links());
    }

    private static BiftForm form(Bift b) {
        List<String> neighbors = new ArrayList<>(b.capacity());
        for (int i = 0; i < b.capacity(); i++) {
            neighbors.add(b.neighborFor(i));
        }
        return new BiftForm(b.node(), neighbors, b.localBits(), b.unreachableBits());
    }

    private static Bift bift(BiftForm f) {
        return Bift.of(f.node(), f.neighborOfBit().toArray(new String[0]), f.local(), f.unreachable());
    }

    /** Registers {@code type} to travel as {@code form}. */
    private <T, F> void as(Class<T> type, Class<F> form, Function<T, F> to, Function<F, T> from) {
        addSerializer(type, new JsonSerializer<T>() {
            @Override
            public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                provider.defaultSerializeValue(to.apply(value), gen);
            }
        });
        addDeserializer(type, new JsonDeserializer<T>() {
            @Override
            public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                F f = ctxt.readValue(p, form);
                try {
                    return from.apply(f);
                } catch (IllegalArgumentException e) {
                    throw ValueInstantiationException.from(
                            p, "bad " + type.getSimpleName() + ": " + e.getMessage(), ctxt.constructType(type), e);
                }
            }
        });
    }
}
