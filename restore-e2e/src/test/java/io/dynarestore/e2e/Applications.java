package io.dynarestore.e2e;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts and closes the services that run inside the test JVM, one at a time across the JVM. Spring
 * Boot's logging system is one per JVM: an application that starts (or closes) initializes (or
 * cleans up) logback's shared context, which is not safe to do from two threads at once. With
 * end-to-end classes running at the same time, two starts raced there and one failed with a
 * ConcurrentModificationException inside logback.
 */
final class Applications {

    private static final ReentrantLock LIFECYCLE = new ReentrantLock();

    private Applications() {}

    static ConfigurableApplicationContext run(SpringApplicationBuilder builder, String... args) {
        return serially(() -> builder.run(args));
    }

    static void close(ConfigurableApplicationContext context) {
        serially(() -> {
            context.close();
            return null;
        });
    }

    private static <T> T serially(Supplier<T> action) {
        LIFECYCLE.lock();
        try {
            return action.get();
        } finally {
            LIFECYCLE.unlock();
        }
    }
}
