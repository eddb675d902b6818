package io.dynarestore.testkit;

import java.util.concurrent.TimeUnit;

/** Stopping the processes of a local stack: SIGTERM first, SIGKILL for one that has not exited in 20 s. */
public final class Processes {

    private Processes() {}

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
