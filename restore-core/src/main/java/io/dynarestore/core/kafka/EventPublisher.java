package io.dynarestore.core.kafka;

import io.dynarestore.contracts.CloudEvents;
import io.dynarestore.contracts.Envelope;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.contracts.status.RestoreEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
    private final String signingKey;

    public EventPublisher(Map<String, Object> producerConfig, String service) {
        this(producerConfig, service, null);
    }

    /**
     * @param signingKey the key that proves {@code service} as the principal of what it publishes on
     *                   {@code restore.requests} and {@code restore.commands} ({@code null}: unsigned)
     */
    public EventPublisher(Map<String, Object> producerConfig, String service, String signingKey) {
        var config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putIfAbsent(
                ProducerConfig.CLIENT_ID_CONFIG,
                service + "-" + ProcessHandle.current().pid());
        this.producer = new KafkaProducer<>(config);
        this.service = service;
        this.signingKey = signingKey;
    }

    public Producer<String, byte[]> producer() {
        return producer;
    }

    /** Sends {@code message} to {@code topic} under {@code key}; completes when the broker has it. */
    public CompletableFuture<RecordMetadata> send(Topic topic, String key, Envelope message) {
        return send(topic, key, message, null);
    }

    /**
     * Sends {@code message} on behalf of {@code caller}, the authenticated caller this service
     * vouches for. On {@code restore.requests} and {@code restore.commands} the record names this
     * service as its principal, and the caller, signed (see {@link MessageSignature}), so that the
     * planner can hold it to the caller's roles.
     */
    public CompletableFuture<RecordMetadata> send(Topic topic, String key, Envelope message, String caller) {
        return send(topic, null, key, message, caller);
    }

    /** Sends {@code message} to one partition of {@code topic} (work meant for the replica that holds it). */
    public CompletableFuture<RecordMetadata> send(Topic topic, int partition, String key, Envelope message) {
        return send(topic, partition, key, message, null);
    }

    private CompletableFuture<RecordMetadata> send(
            Topic topic, Integer partition, String key, Envelope message, String caller) {
        byte[] value = Json.toBytes(message);
        var record = new ProducerRecord<String, byte[]>(topic.topicName(), partition, key, value);
        CloudEvents.headers(message, service).forEach((k, v) -> record.headers().add(k, v));
        if (topic == Topic.REQUESTS || topic == Topic.COMMANDS) {
            record.headers().add(Access.PRINCIPAL_HEADER, utf8(service));
            if (caller != null) {
                record.headers().add(MessageSignature.CALLER_HEADER, utf8(caller));
            }
            if (signingKey != null) {
                record.headers()
                        .add(
                                MessageSignature.HEADER,
                                utf8(MessageSignature.sign(signingKey, topic.topicName(), service, caller, value)));
            }
        }
        return sendAsync(record);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
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
            throw new KafkaUnavailableException(
                    "Kafka did not take the message: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException(
                    "Kafka did not acknowledge the message within " + SEND_TIMEOUT_SECONDS + " s", e);
        }
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    /** Kafka could not take a message in time. */
    public static class KafkaUnavailableException extends RuntimeException {
        public KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
