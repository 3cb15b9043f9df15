package org.bitina.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the console's streams are terminals: colour and a redrawn progress bar only there. */
final class Terminal {
    private Terminal() {}

    /** Standard error is a terminal: the progress bar may redraw itself in place. */
    static boolean stderr() {
        return isTerminal(2);
    }

    /**
     * Colour on standard output: a terminal, and neither {@code NO_COLOR} (no-color.org) set nor
     * {@code TERM=dumb}.
     */
    static boolean colourOnStdout() {
        String noColor = System.getenv("NO_COLOR");
        return isTerminal(1) && (noColor == null || noColor.isEmpty()) && !"dumb".equals(System.getenv("TERM"));
    }

    /**
     * On Linux, where the descriptor points; elsewhere the JDK's console (which answers for
     * standard input and output together).
     */
    private static boolean isTerminal(int fd) {
        try {
            String to = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return to.startsWith("/dev/pts/") || to.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }
}
