package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every value of a shipped scenario, replaced in turn by a value of another type, makes the
 * file invalid with problems, never with an exception from the config library.
 */
class ScenarioLoaderWrongTypesTest {
    private static final List<ConfigValue> WRONG = List.of(
            ConfigValueFactory.fromAnyRef(5),
            ConfigValueFactory.fromAnyRef("x"),
            ConfigValueFactory.fromIterable(List.of(1)),
            ConfigValueFactory.fromMap(Map.of("a", 1)));

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "paper-fig1-allreduce.conf",
                "paper-fig2-moe.conf",
                "fat-tree-k8-checkpoint-loss.conf",
                "fat-tree-k4-bier-inc.conf",
                "fat-tree-k4-allreduce.conf"
            })
    void anyValueOfTheWrongTypeIsAProblemNotAnException(String name) throws IOException {
        ConfigObject root = ConfigFactory.parseFile(
                        Path.of("..", "topology-configs", name).toFile(), ConfigParseOptions.defaults())
                .resolve()
                .root();
        List<ConfigValue> variants = mutations(root);
        assertTrue(variants.size() > 20, "" + variants.size());
        Path f = dir.resolve("mutant.conf");
        for (ConfigValue v : variants) {
            String text = v.render(ConfigRenderOptions.concise());
            Files.writeString(f, text);
            // some replacements are still valid (a name that happens to be a string); the others must be problems
            try {
                ScenarioLoader.load(f);
            } catch (ScenarioException e) {
                assertFalse(e.problems().isEmpty(), text);
            } catch (RuntimeException e) {
                throw new AssertionError(text, e);
            }
        }
        assertThrows(ScenarioException.class, () -> ScenarioLoader.load(write("topology = 5")));
    }

    private Path write(String text) throws IOException {
        Path p = dir.resolve("t.conf");
        Files.writeString(p, text);
        return p;
    }

    /** {@code v} with one of its values, at any depth, replaced by a value of another type. */
    private static List<ConfigValue> mutations(ConfigValue v) {
        List<ConfigValue> out = new ArrayList<>();
        for (ConfigValue w : WRONG) {
            if (w.valueType() != v.valueType()) {
                out.add(w);
            }
        }
        if (v instanceof ConfigObject o) {
            for (String key : o.keySet()) {
                for (ConfigValue m : mutations(o.get(key))) {
                    out.add(o.withValue(key, m));
                }
            }
        } else if (v instanceof ConfigList l) {
            for (int i = 0; i < l.size(); i++) {
                for (ConfigValue m : mutations(l.get(i))) {
                    List<Object> copy = new ArrayList<>(l);
                    copy.set(i, m);
                    out.add(ConfigValueFactory.fromIterable(copy));
                }
            }
        }
        return out;
    }
}
