package io.dynarestore.protector.rejections;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ProtectionMessageRejected;
import io.dynarestore.contracts.protection.ProtectionRejectionCode;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a message the protector cannot act on to its topic's dead-letter topic and reports it with a
 * {@link ProtectionMessageRejected} on {@code restore.protection.events}, so that nothing is lost and
 * whoever wrote it learns why. A message read again by this process (a compacted topic is read from
 * its start after every assignment) is sent once; another process sends it again, under the same
 * event id. The memory of what was sent is bounded.
 */
public final class Rejections {

    private static final Logger log = LoggerFactory.getLogger(Rejections.class);
    private static final int REMEMBERED = 10_000;

    private final EventPublisher publisher;
    private final Map<String, Boolean> sent = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    };

    public Rejections(EventPublisher publisher) {
        this.publisher = publisher;
    }

    /** Rejects {@code record}: {@code reason} says what is wrong and how to fix it. */
    public void reject(ConsumerRecord<String, byte[]> record, ProtectionRejectionCode code, String reason) {
        String position = record.topic() + "-" + record.partition() + "@" + record.offset();
        synchronized (sent) {
            if (sent.put(position, Boolean.TRUE) != null) {
                return;
            }
        }
        log.warn("{} (key {}) goes to the dead-letter topic: {}", position, abbreviated(record.key()), reason);
        DeadLetters.send(publisher, record, code.name(), reason, null);
        var event = ProtectionMessageRejected.of(
                record.key(), record.topic(), record.partition(), record.offset(), code, reason);
        publisher.send(Topic.PROTECTION_EVENTS, event.subject(), event).whenComplete((m, e) -> {
            if (e != null) {
                log.warn("could not report the rejection of {}: {}", position, e.toString());
            }
        });
    }

    private static String abbreviated(String key) {
        return key == null ? "null" : key.length() > 200 ? key.substring(0, 200) + "..." : key;
    }
}
