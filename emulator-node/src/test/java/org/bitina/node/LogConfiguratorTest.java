package org.bitina.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class LogConfiguratorTest {

    @Test
    void logbackFindsTheConfiguratorAsAService() {
        assertTrue(ServiceLoader.load(Configurator.class).stream().anyMatch(p -> p.type() == LogConfigurator.class));
    }

    @Test
    void rootLogsThroughANonBlockingAsyncAppenderToStderr() {
        LoggerContext context = new LoggerContext();
        assertEquals(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, new LogConfigurator().configure(context));
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertEquals(Level.WARN, root.getLevel());
        AsyncAppender async = assertInstanceOf(AsyncAppender.class, root.getAppender("ASYNC"));
        assertTrue(async.isNeverBlock());
        assertEquals(8192, async.getQueueSize());
        assertEquals(0, async.getDiscardingThreshold());
        ConsoleAppender<?> stderr = assertInstanceOf(ConsoleAppender.class, async.getAppender("STDERR"));
        assertEquals("System.err", stderr.getTarget());
        assertEquals(Level.WARN, context.getLogger("org.apache.pekko").getLevel());
        context.stop();
    }

    @Test
    void bitinaLevelComesFromTheSystemProperty() {
        String before = System.getProperty("BITINA_LOG_LEVEL");
        System.setProperty("BITINA_LOG_LEVEL", "INFO");
        try {
            LoggerContext context = new LoggerContext();
            new LogConfigurator().configure(context);
            assertEquals(Level.INFO, context.getLogger("org.bitina").getLevel());
            context.stop();
        } finally {
            if (before == null) {
                System.clearProperty("BITINA_LOG_LEVEL");
            } else {
                System.setProperty("BITINA_LOG_LEVEL", before);
            }
        }
    }
}
