package io.dynarestore.planner.fleet;

/** Planning shared over the fleet that could not be done: its message says which part and why, for the restore's failure. */
public final class PartFailed extends RuntimeException {
    PartFailed(String message) {
        super(message);
    }
}
