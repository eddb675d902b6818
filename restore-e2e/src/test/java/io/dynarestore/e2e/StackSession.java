package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.util.Collection;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's hold on the {@link SharedStack}, registered as a JUnit extension: the stack, a
 * follower of the status topic, and a producer of requests, opened before the class and closed
 * after it (the stack itself lives as long as the JVM).
 */
final class StackSession implements BeforeAllCallback, AfterAllCallback {

    private RestoreStack stack;
    private TopicRecorder status;
    private KafkaProducer<String, String> producer;

    @Override
    public void beforeAll(ExtensionContext context) {
        stack = SharedStack.get();
        status = stack.followStatus();
        producer = stack.stringProducer();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        producer.close();
        status.close();
    }

    RestoreStack stack() {
        return stack;
    }

    TopicRecorder status() {
        return status;
    }

    /** Publishes a request on {@code restore.requests}, keyed by its restore id. */
    void request(String restoreId, String json) {
        producer.send(new ProducerRecord<>("restore.requests", restoreId, json));
    }

    /** Publishes a command on {@code restore.commands}, keyed by its restore id, and waits until it is sent. */
    void command(String restoreId, String json) {
        producer.send(new ProducerRecord<>("restore.commands", restoreId, json));
        producer.flush();
    }

    /** Waits until every request published so far is sent. */
    void flush() {
        producer.flush();
    }

    /** Waits until every one of the restores completed; fails on the first that is rejected or fails. */
    void awaitCompleted(Collection<String> restoreIds, Duration atMost) {
        producer.flush();
        await().atMost(atMost).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (String id : restoreIds) {
                assertThat(status.last(id, "RestoreFailed")).as(id).isNull();
                assertThat(status.last(id, "RestoreRejected")).as(id).isNull();
                assertThat(status.last(id, "RestoreCompleted")).as(id).isNotNull();
            }
        });
    }
}
