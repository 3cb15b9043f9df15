package org.bitina.node;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The node's logging, set up in code: logback finds it through the {@link java.util.ServiceLoader}
 * before it would read an XML file, so a run does not load Joran and the JDK's XML parser (some 650
 * classes, about 0.1 s of every start). Console output on stderr through an {@link AsyncAppender}
 * that never blocks an actor (STYLE.md rule 20); Pekko at WARN; {@code org.bitina} at
 * {@code BITINA_LOG_LEVEL} (a system property or the environment; WARN without one). A
 * {@code -Dlogback.configurationFile=...} still wins: the XML file is read as usual.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();

        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();

        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("ASYNC");
        async.setQueueSize(8192);
        async.setDiscardingThreshold(0);
        async.setNeverBlock(true);
        async.addAppender(stderr);
        async.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(async);
        context.getLogger("org.apache.pekko").setLevel(Level.WARN);
        context.getLogger("org.bitina").setLevel(Level.toLevel(bitinaLevel(), Level.WARN));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** {@code BITINA_LOG_LEVEL} as logback's {@code ${BITINA_LOG_LEVEL:-WARN}} read it: the property, then the environment. */
    static String bitinaLevel() {
        String level = System.getProperty("BITINA_LOG_LEVEL");
        return level != null ? level : System.getenv().getOrDefault("BITINA_LOG_LEVEL", "WARN");
    }
}
