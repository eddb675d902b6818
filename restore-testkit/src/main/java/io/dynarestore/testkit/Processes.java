package io.dynarestore.testkit;

import java.util.concurrent.TimeUnit;

/**
 * Stopping the processes and servers of a local stack: SIGTERM first, SIGKILL for a process that has
 * not exited in 20 s; a part that never started ({@code null}) is passed over.
 */
public final class Processes {

    private Processes() {}

    /** Asks {@code p} to stop and waits for it as {@link #await} does; nothing for {@code null}. */
    public static void stop(Process p) {
        if (p != null) {
            p.destroy();
            await(p);
        }
    }

    /** Closes each part that started, in the order given. */
    public static void closeEach(AutoCloseable... parts) {
        for (AutoCloseable part : parts) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + part, e);
            }
        }
    }

    /** Waits up to 20 s for {@code p} (already asked to stop) to exit, then kills it. */
    public static void await(Process p) {
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
