package org.bitina.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.bitina.topology.ScenarioException;
import org.junit.jupiter.api.Test;

/** docs/configuration.md is what the schema generates, and the schema's sections are what the loader checks. */
class ConfigSchemaTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void theGeneratedReferenceIsCurrent() throws IOException {
        String generated = ConfigSchema.markdown();
        if (Boolean.getBoolean("bitina.regenerate")) {
            Files.writeString(DOC, generated);
        }
        assertEquals(generated, Files.readString(DOC), "docs/configuration.md is stale: regenerate it with "
                + "mvn -pl emulator-core test -Dtest=ConfigSchemaTest -Dbitina.regenerate=true");
    }

    @Test
    void everyKeyIsDocumentedOnceWithATypeAnExampleAndAMeaning() {
        for (ConfigSchema.Section s : ConfigSchema.ALL) {
            Set<String> seen = new HashSet<>();
            for (ConfigSchema.Key k : s.keys()) {
                assertTrue(seen.add(k.name()), s.path() + "." + k.name() + " twice");
                assertTrue(!k.type().isBlank() && !k.example().isBlank() && !k.doc().isBlank() && !k.defaultValue().isBlank(),
                        s.path() + "." + k.name());
            }
        }
    }

    @Test
    void aKeyTheSchemaLacksIsRefusedAtItsLineAsUnknown() throws IOException {
        Path f = Files.createTempFile("schema", ".conf");
        Files.writeString(f, """
                topology { generator { kind = paper-fig1 }, pod = {} }
                cluster { jvms = 1, placment = by-pod }
                """);
        ScenarioException e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class, () -> ScenarioLoader.load(f));
        String m = e.getMessage();
        assertTrue(m.contains(":1:") && m.contains("pod"), m);
        assertTrue(m.contains(":2:") && m.contains("placment"), m);
        Files.delete(f);
    }
}
