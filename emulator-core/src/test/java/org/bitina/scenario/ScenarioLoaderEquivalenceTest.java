package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bitina.topology.Scenario;
import org.bitina.topology.ScenarioException;
import org.bitina.topology.TopologyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Temporary: the new loader reads every valid file into the same model as the old one. */
class ScenarioLoaderEquivalenceTest {
    @TempDir
    Path dir;

    @Test
    void everyValidScenarioLoadsToTheSameModel() throws Exception {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("..", "topology-configs"))) {
            s.filter(f -> f.toString().endsWith(".conf") && !f.endsWith("defaults.conf")).sorted().forEach(files::add);
        }
        Files.copy(Path.of("..", "topology-configs", "defaults.conf"), dir.resolve("defaults.conf"));
        Pattern block = Pattern.compile("\"\"\"\\n(.*?)\"\"\"", Pattern.DOTALL);
        int n = 0;
        for (Path src : List.of(Path.of("src/test/java"), Path.of("../emulator-node/src/test/java"))) {
            try (Stream<Path> s = Files.walk(src)) {
                for (Path j : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = block.matcher(Files.readString(j));
                    while (m.find()) {
                        String text = m.group(1).replace("\\n", "\n");
                        if (text.contains("topology")) {
                            for (String variant : variants(text.replaceAll("(?m)^ {8}", ""))) {
                                Path f = dir.resolve("t" + (n++) + ".conf");
                                Files.writeString(f, variant);
                                files.add(f);
                            }
                        }
                    }
                }
            }
        }
        int valid = 0;
        for (Path f : files) {
            Scenario old;
            try {
                old = TopologyLoader.load(f);
            } catch (ScenarioException | RuntimeException e) {
                try {
                    ScenarioLoader.load(f);
                    throw new AssertionError(f + " is valid now, was: " + e.getMessage());
                } catch (ScenarioException expected) {
                    System.out.println("--- " + f + "\nold: " + e.getMessage().replace("\n", "\n     ") + "\nnew: "
                            + expected.getMessage().replace("\n", "\n     "));
                }
                continue;
            }
            valid++;
            Scenario now = ScenarioLoader.load(f);
            String a = dump(old);
            String b = dump(now);
            int i = 0;
            while (i < Math.min(a.length(), b.length()) && a.charAt(i) == b.charAt(i)) {
                i++;
            }
            int from = Math.max(0, i - 200);
            assertEquals(a.substring(from, Math.min(a.length(), i + 200)), b.substring(from, Math.min(b.length(), i + 200)), f.toString());
        }
        System.out.println("equivalent: " + valid + " valid of " + files.size() + " files");
        assertTrue(valid > 20, "" + valid);
    }

    /** The tests' templates filled the way the tests fill them. */
    private static List<String> variants(String text) {
        if (text.contains("encoding = %s")) {
            return Stream.of("flat", "node-list", "hierarchical", "{ kind = hierarchical, block = 2 }")
                    .map(text::formatted).toList();
        }
        if (text.contains("type = %s, op = %s")) {
            return List.of(text.formatted("int32", "max"), text.formatted("float32", "product"));
        }
        if (text.contains("reliable-multicast") && text.contains("%s")) {
            return List.of(
                    text.formatted("data { bytes = 64KiB, packet = 4000, window = 4, seed = 1 }, ack { per = window, tree = preconfigured }",
                            "2s", ""),
                    text.formatted("data { bytes = 32000, packet = 4000, window = 4, seed = 2 }, ack { per = packet, tree = composed }, "
                            + "max-rounds = 60", "2s", "faults = [ { kind = loss, rate = 5% } ]"),
                    text.formatted("data { bytes = 16000, packet = 4000, window = 2, seed = 4 }, ack { per = window, tree = composed }, "
                            + "max-rounds = 3", "500ms", "faults = [ { kind = silent, node = h5 } ]"));
        }
        return List.of(text);
    }

    private static String dump(Object o) throws IllegalAccessException {
        StringBuilder sb = new StringBuilder();
        dump(o, sb, new IdentityHashMap<>());
        return sb.toString();
    }

    private static void dump(Object o, StringBuilder sb, Map<Object, Boolean> seen) throws IllegalAccessException {
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>
                || o instanceof java.time.Duration) {
            sb.append(o);
            return;
        }
        if (o instanceof long[] a) {
            sb.append(java.util.Arrays.toString(a));
            return;
        }
        if (o instanceof int[] a) {
            sb.append(java.util.Arrays.toString(a));
            return;
        }
        if (o instanceof Collection<?> c) {
            sb.append('[');
            for (Object e : c) {
                dump(e, sb, seen);
                sb.append(',');
            }
            sb.append(']');
            return;
        }
        if (o instanceof Map<?, ?> m) {
            sb.append('{');
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            for (var e : sorted.entrySet()) {
                sb.append(e.getKey()).append('=');
                dump(e.getValue(), sb, seen);
                sb.append(',');
            }
            sb.append('}');
            return;
        }
        if (seen.put(o, true) != null) {
            sb.append("<seen>");
            return;
        }
        sb.append(o.getClass().getSimpleName()).append('(');
        if (o.getClass().isRecord()) {
            for (RecordComponent rc : o.getClass().getRecordComponents()) {
                sb.append(rc.getName()).append('=');
                try {
                    dump(rc.getAccessor().invoke(o), sb, seen);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
                sb.append(';');
            }
        } else if (o.getClass().getName().startsWith("org.bitina")) {
            for (Class<?> c = o.getClass(); c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    f.setAccessible(true);
                    sb.append(f.getName()).append('=');
                    dump(f.get(o), sb, seen);
                    sb.append(';');
                }
            }
        } else {
            sb.append(o);
        }
        sb.append(')');
    }
}
