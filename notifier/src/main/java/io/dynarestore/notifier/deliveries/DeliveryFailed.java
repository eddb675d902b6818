package io.dynarestore.notifier.deliveries;

/** A try that did not deliver; {@code retryable} when a later try may succeed (5xx, timeouts, refused connections). */
public class DeliveryFailed extends Exception {

    private final boolean retryable;

    public DeliveryFailed(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
