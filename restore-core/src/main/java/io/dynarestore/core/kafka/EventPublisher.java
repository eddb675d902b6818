package io.dynarestore.core.kafka;

import io.dynarestore.contracts.CloudEvents;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes messages as JSON with CloudEvents headers, keyed as the contract says. The producer
 * is idempotent with {@code acks=all}, so a message that the broker acknowledged survives a
 * broker failover and a retried send is not duplicated.
 */
public final class EventPublisher implements AutoCloseable {

    private static final long SEND_TIMEOUT_SECONDS = 30;

    private final Producer<String, byte[]> producer;
    private final String service;

    public EventPublisher(Map<String, Object> producerConfig, String service) {
        var config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, service + "-" + ProcessHandle.current().pid());
        this.producer = new KafkaProducer<>(config);
        this.service = service;
    }

    public Producer<String, byte[]> producer() {
        return producer;
    }

    /** Sends {@code message} to {@code topic} under {@code key}; completes when the broker has it. */
    public CompletableFuture<RecordMetadata> send(Topic topic, String key, Envelope message) {
        var record = new ProducerRecord<String, byte[]>(topic.topicName(), key, Json.toBytes(message));
        CloudEvents.headers(message, service).forEach((k, v) -> record.headers().add(k, v));
        if (topic == Topic.REQUESTS || topic == Topic.COMMANDS) {
            // the planner authorizes requests by their publisher; this service vouches for its own callers
            record.headers().add(io.dynarestore.contracts.access.Access.PRINCIPAL_HEADER,
                    service.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return sendAsync(record);
    }

    /** Sends a prepared record (a forwarded or dead-lettered message) and waits until the broker has it. */
    public RecordMetadata sendRecord(ProducerRecord<String, byte[]> record) {
        return await(sendAsync(record));
    }

    private CompletableFuture<RecordMetadata> sendAsync(ProducerRecord<String, byte[]> record) {
        var future = new CompletableFuture<RecordMetadata>();
        producer.send(record, (metadata, error) -> {
            if (error != null) {
                future.completeExceptionally(error);
            } else {
                future.complete(metadata);
            }
        });
        return future;
    }

    /** Sends a status event keyed by its restore id and waits until the broker has it. */
    public RecordMetadata status(RestoreEvent event) {
        return await(send(Topic.STATUS, event.restoreId(), event));
    }

    public static RecordMetadata await(CompletableFuture<RecordMetadata> future) {
        try {
            return future.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while publishing", e);
        } catch (ExecutionException e) {
            throw new KafkaUnavailableException("Kafka did not take the message: " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not acknowledge the message within "
                    + SEND_TIMEOUT_SECONDS + " s", e);
        }
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(10));
    }

    /** Kafka could not take a message in time. */
    public static class KafkaUnavailableException extends RuntimeException {
        public KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
