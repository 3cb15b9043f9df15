package org.bitina.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The drop reasons are one closed list: each made by some rule, each documented, each counted as before. */
class DropReasonTest {
    private static final Path DOC = Path.of("..", "docs", "reference.md");
    private static final Path PROTOCOL = Path.of("src", "main", "java", "org", "bitina", "protocol");

    /** How docs/reference.md writes a reason: its names and bitmaps as "…", its numbers as "N". */
    static String documented(DropReason r) {
        return "`" + r.template().replace("%s", "…").replace("%d", "N") + "`";
    }

    @Test
    void everyReasonIsInTheReference() throws IOException {
        String doc = Files.readString(DOC);
        List<String> missing = new ArrayList<>();
        for (DropReason r : DropReason.values()) {
            if (!doc.contains("| " + documented(r) + " |")) {
                missing.add(r.name() + " " + documented(r));
            }
        }
        assertEquals(List.of(), missing, "reasons missing from the drop table of docs/reference.md");
    }

    @Test
    void everyReasonIsMadeBySomeRule() throws IOException {
        StringBuilder sources = new StringBuilder();
        try (Stream<Path> files = Files.list(PROTOCOL)) {
            for (Path p : files.filter(p -> !p.endsWith("DropReason.java")).toList()) {
                sources.append(Files.readString(p));
            }
        }
        List<String> unused = new ArrayList<>();
        for (DropReason r : DropReason.values()) {
            if (!sources.toString().contains("DropReason." + r.name())) {
                unused.add(r.name());
            }
        }
        assertEquals(List.of(), unused, "reasons no rule of the protocol makes");
    }

    @Test
    void theTextAndTheReportKeyAreWhatTheyWereAsFreeText() {
        assertEquals("bitmap of 8 bits in a job of 16", DropReason.BITMAP_SIZE.text(8, 16));
        assertEquals("bitmap of N bits in a job of N", DropReason.key(DropReason.BITMAP_SIZE.text(8, 16)));
        assertEquals("no route to h12", DropReason.NO_ROUTE.text("h12"));
        assertEquals("no route to hN", DropReason.key("no route to h12"));
        assertEquals("duplicate share", DropReason.DUPLICATE.text("share"));
        assertEquals("link down", DropReason.LINK_DOWN.text());
        assertEquals(
                "P-BM [...] carries bits outside the node bitmap [...]",
                DropReason.key(DropReason.PBM_OUTSIDE_NODE_BITMAP.text("[0110]", "[1100]")));
        assertTrue(DropReason.key("job t1/j2 holds its quota of 4 aggregation entries; x refused")
                .startsWith("job tN/jN holds its quota of N"));
    }
}
