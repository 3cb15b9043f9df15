package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/ name source files that exist: a path from the repository's root
 * ({@code `emulator-core/src/...`}) is a file, and a class named by its package
 * ({@code `usecase/reduction/*Schedule.java`}, {@code `reduction.ArrayKeys`}, {@code `run.Report.JobReport`})
 * is a file under {@code org/bitina} of a module. A class that moved leaves no stale pointer behind.
 */
class DocsSourcePathsTest {
    private static final Path ROOT = Path.of("..");
    private static final List<Path> SOURCES = List.of(
            ROOT.resolve("emulator-core/src/main/java/org/bitina"),
            ROOT.resolve("emulator-node/src/main/java/org/bitina"),
            ROOT.resolve("benchmarks/src/main/java/org/bitina"));
    private static final Pattern TICKED = Pattern.compile("`([^`\\s]+)`");
    private static final Pattern FROM_ROOT = Pattern.compile("(emulator-core|emulator-node|benchmarks)/src/.+");
    /** Packages (dot or slash), then a class or a glob of classes, then perhaps nested types. */
    private static final Pattern BY_PACKAGE =
            Pattern.compile("((?:[a-z][a-z0-9]*[./])+)([A-Z*][A-Za-z0-9*]*)(?:\\.java|(?:\\.[A-Z][A-Za-z0-9]*)*)");

    @Test
    void everySourcePathTheDocsNameExists() throws IOException {
        Set<String> packages = topPackages();
        List<Path> files = javaFiles();
        List<String> stale = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            Matcher m = TICKED.matcher(Files.readString(page));
            while (m.find()) {
                String name = m.group(1);
                if (FROM_ROOT.matcher(name).matches()) {
                    checked++;
                    if (!Files.exists(ROOT.resolve(name))) {
                        stale.add(page.getFileName() + ": " + name);
                    }
                    continue;
                }
                Matcher c = BY_PACKAGE.matcher(name);
                if (!c.matches() || !packages.contains(name.split("[./]")[0])) {
                    continue;
                }
                checked++;
                String path = c.group(1).replace('.', '/') + c.group(2) + ".java";
                PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:**/" + path);
                if (files.stream().noneMatch(glob::matches)) {
                    stale.add(page.getFileName() + ": " + name);
                }
            }
        }
        assertEquals(List.of(), stale);
        // the patterns still find what the docs write: a test that checks nothing proves nothing
        assertTrue(checked >= 10, "only " + checked + " source paths found in the docs");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The packages below org.bitina ({@code usecase}, {@code run}, ...) and their subpackages' last names ({@code reduction}). */
    private static Set<String> topPackages() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path src : SOURCES) {
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> dirs = Files.walk(src)) {
                dirs.filter(Files::isDirectory)
                        .filter(d -> !d.equals(src))
                        .map(d -> d.getFileName().toString())
                        .forEach(names::add);
            }
        }
        return names;
    }

    private static List<Path> javaFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path src : SOURCES) {
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> all = Files.walk(src)) {
                files.addAll(all.filter(p -> p.toString().endsWith(".java"))
                        .map(p -> src.getParent().getParent().relativize(p))
                        .collect(Collectors.toList()));
            }
        }
        return files;
    }
}
