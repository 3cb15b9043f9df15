package org.bitina.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shipped scenario not in {@link QuietRunTest#QUICK} (the k=8 fat-trees, the shared fabric,
 * the workloads, the attacks) ends as expected with no WARN, ERROR or stack trace: run by failsafe
 * in {@code mvn verify}, since together they take a minute or two.
 */
class QuietRunIT {
    static Stream<Path> others() throws IOException {
        return QuietRunTest.shipped().stream()
                .filter(p -> !(p.getParent().endsWith("topology-configs")
                        && QuietRunTest.QUICK.contains(p.getFileName().toString())));
    }

    @ParameterizedTest
    @MethodSource("others")
    void aSuccessfulRunIsQuiet(Path file) {
        QuietRunTest.assertQuiet(file);
    }
}
