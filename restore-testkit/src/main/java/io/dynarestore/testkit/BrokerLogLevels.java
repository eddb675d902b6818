package io.dynarestore.testkit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * The levels the build gives the broker's and the Kafka clients' loggers ({@code logging.level.kafka},
 * {@code logging.level.org.apache.kafka}, {@code logging.level.state.change.logger} as system
 * properties), applied before a test JVM's first broker starts: Spring Boot applies them only once
 * a service starts, and the broker's start-up lines (its whole configuration, every partition) came
 * first. Applied only where logback is the binding.
 */
final class BrokerLogLevels {

    private static final String[] LOGGERS = {"kafka", "org.apache.kafka", "state.change.logger"};

    private BrokerLogLevels() {}

    static void apply() {
        try {
            Logback.apply();
        } catch (LinkageError noLogback) {
            // another SLF4J binding: its own configuration decides
        }
    }

    /** Holds the references to logback, so that a JVM without it never loads them. */
    private static final class Logback {

        static void apply() {
            if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
                return;
            }
            for (String name : LOGGERS) {
                String level = System.getProperty("logging.level." + name);
                if (level != null) {
                    context.getLogger(name).setLevel(Level.toLevel(level, null));
                }
            }
        }
    }
}
