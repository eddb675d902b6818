package io.dynarestore.core.threads;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads of a service's own pools. Rule: they are daemons, so that a pool nobody shut down never
 * keeps a stopping JVM alive, and each is named {@code <name>-<n>}, so that thread dumps and
 * logs tell the pools apart.
 */
public final class DaemonThreads {

    private DaemonThreads() {}

    /** A factory of daemon threads named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory named(String name) {
        var counter = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + counter.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
