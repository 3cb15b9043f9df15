package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README and docs/ point only at files a clone has, and the front page says how to start. */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

    @Test
    void everyRelativeLinkInTheReadmeAndDocsNamesAFileOfTheRepository() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page);
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://")) {
                    continue;
                }
                if (!Files.exists(page.getParent().resolve(target))) {
                    broken.add(page.getFileName() + " -> " + target);
                }
            }
            // the seeds travel by name, not by a path outside the repository
            assertTrue(
                    !text.contains("../shared") && !text.contains("DESIGN.md"),
                    page + " points outside the repository");
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void theFrontPageStartsWithTheTwoCommands() throws IOException {
        List<String> first =
                Files.readAllLines(ROOT.resolve("README.md")).stream().limit(25).toList();
        assertTrue(
                first.stream().anyMatch(l -> l.startsWith("./bitina run topology-configs/")), String.join("\n", first));
        assertTrue(first.stream().anyMatch(l -> l.startsWith("mvn -B verify")), String.join("\n", first));
        assertTrue(Files.exists(ROOT.resolve("LICENSE")) && Files.exists(ROOT.resolve("CITATION.cff")));
    }
}
