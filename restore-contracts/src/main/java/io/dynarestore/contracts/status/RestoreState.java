package io.dynarestore.contracts.status;

/**
 * Where a restore stands, as folded from its status events by {@link RestoreView}.
 * {@code REQUESTED} is the state of a request seen on {@code restore.requests} (or just
 * submitted to restore-api) that no status event has answered yet.
 */
public enum RestoreState {
    REQUESTED,
    ACCEPTED,
    REJECTED,
    PLANNED,
    RUNNING,
    COMPLETED,
    FAILED,
    CANCELLED;

    public boolean terminal() {
        return this == REJECTED || this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
