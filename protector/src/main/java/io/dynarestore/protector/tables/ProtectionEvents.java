package io.dynarestore.protector.tables;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.core.kafka.EventPublisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Publishes what the protector did on {@code restore.protection.events}, keyed by the table. */
final class ProtectionEvents {

    private static final Logger log = LoggerFactory.getLogger(ProtectionEvents.class);

    private final EventPublisher publisher;

    ProtectionEvents(EventPublisher publisher) {
        this.publisher = publisher;
    }

    void publish(ProtectionEvent event) {
        publisher.send(Topic.PROTECTION_EVENTS, event.subject(), event).whenComplete((m, e) -> {
            if (e != null) {
                // the vault holds what happened; the event is the report of it
                log.warn("could not publish {} of {}: {}", event.type(), event.subject(), e.toString());
            }
        });
    }
}
