package io.dynarestore.notifier.deliveries;

/** Sends one delivery once; the {@link Dispatcher} retries. */
public interface Channel {

    void send(Delivery delivery) throws DeliveryFailed;
}
