package io.dynarestore.api.restores;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.Partitions;
import io.dynarestore.core.threads.DaemonThreads;
import io.swagger.v3.oas.annotations.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /restores/{id}/events}: a restore's status events as Server-Sent Events, in log
 * order, from its first event (or after {@code Last-Event-ID}), ending after its terminal event.
 * Each event's id is its offset on {@code restore.status}, its name the event type, its data the
 * event's JSON, exactly as on Kafka. Every stream reads the restore's partition with its own
 * consumer, so nothing is buffered per restore, and a client that reconnects with
 * {@code Last-Event-ID} misses nothing and sees nothing twice. Streams are bounded
 * ({@code api.events.max-streams} per replica, {@code api.limits.streams-per-caller} per caller).
 */
@RestController
class EventsController {

    private static final Logger log = LoggerFactory.getLogger(EventsController.class);

    private final RestoreViews views;
    private final Map<String, Object> consumerConfig;
    private final ApiProperties.Events settings;
    private final Semaphore streams;
    private final ExecutorService pool = Executors.newCachedThreadPool(DaemonThreads.named("sse-stream"));

    private final CallerLimits limits;
    private final String defaultAccount;

    EventsController(
            RestoreViews views, KafkaProperties kafka, ApiProperties properties, CallerLimits limits, AwsClients aws) {
        this.views = views;
        this.limits = limits;
        this.defaultAccount = aws.defaultAccount();
        this.settings = properties.events();
        this.streams = new Semaphore(settings.maxStreams());
        var config = new HashMap<>(kafka.buildConsumerProperties());
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.consumerConfig = config;
    }

    @Operation(
            summary = "A restore's status events as Server-Sent Events",
            description = "Event id = offset on restore.status, event name = type, data = the event JSON. Resume "
                    + "with the Last-Event-ID header. The stream ends after the restore's terminal event.")
    @GetMapping(path = "/restores/{restoreId}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(
            @PathVariable String restoreId,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        var summary = views.find(restoreId)
                .orElseThrow(() ->
                        new ApiProblem(404, "RESTORE_NOT_FOUND", "No restore has the id " + restoreId + ".", null));
        Callers.require(views.toFollow(restoreId, defaultAccount), "Following restore " + restoreId);
        String caller = Callers.name();
        long from;
        try {
            from = lastEventId == null || lastEventId.isBlank() ? -1 : Long.parseLong(lastEventId.trim()) + 1;
        } catch (NumberFormatException e) {
            throw new ApiProblem(
                    400,
                    "INVALID_LAST_EVENT_ID",
                    "Last-Event-ID must be the id of an event of this " + "stream (a number), not " + lastEventId
                            + "; leave it out to start from the first event.",
                    null);
        }
        limits.streamOpened(caller);
        if (!streams.tryAcquire()) {
            limits.streamClosed(caller);
            throw new ApiProblem(
                            503,
                            "TOO_MANY_STREAMS",
                            "This replica serves " + settings.maxStreams()
                                    + " event streams already; try again later, or follow restore.status on Kafka.",
                            null)
                    .retryAfter(5);
        }
        var emitter = new SseEmitter(settings.maxDuration().toMillis());
        var first = views.firstEvent(restoreId);
        long start = from >= 0 ? from : first.map(RestoreViews.Position::offset).orElse(0L);
        Integer partition = first.map(RestoreViews.Position::partition).orElse(null);
        boolean endedAlready = summary.state() != null && summary.state().terminal();
        pool.submit(() -> {
            try {
                stream(restoreId, partition, start, emitter, endedAlready);
            } finally {
                streams.release();
                limits.streamClosed(caller);
            }
        });
        return emitter;
    }

    private void stream(String restoreId, Integer knownPartition, long start, SseEmitter emitter, boolean ended) {
        try (var consumer = new KafkaConsumer<String, byte[]>(consumerConfig)) {
            int partition = knownPartition != null
                    ? knownPartition
                    : Partitions.of(
                            restoreId,
                            consumer.partitionsFor(Topic.STATUS.topicName()).size());
            var tp = new TopicPartition(Topic.STATUS.topicName(), partition);
            consumer.assign(List.of(tp));
            consumer.seek(tp, start);
            long end = ended ? consumer.endOffsets(List.of(tp)).get(tp) : Long.MAX_VALUE;
            long deadline = System.nanoTime() + settings.maxDuration().toNanos();
            long nextBeat = System.nanoTime() + settings.heartbeat().toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(250))) {
                    if (!restoreId.equals(record.key())) {
                        continue;
                    }
                    RestoreEvent event = Messages.statusEvent(record.value());
                    if (event == null) {
                        continue;
                    }
                    emitter.send(SseEmitter.event()
                            .id(String.valueOf(record.offset()))
                            .name(event.type())
                            .data(new String(record.value(), StandardCharsets.UTF_8), MediaType.APPLICATION_JSON));
                    if (event.terminal()) {
                        emitter.complete();
                        return;
                    }
                }
                if (consumer.position(tp) >= end) {
                    emitter.complete(); // ended before this stream began, and everything after Last-Event-ID is sent
                    return;
                }
                if (System.nanoTime() >= nextBeat) {
                    emitter.send(SseEmitter.event().comment("keep-alive"));
                    nextBeat = System.nanoTime() + settings.heartbeat().toNanos();
                }
            }
            emitter.complete();
        } catch (IOException | IllegalStateException e) {
            log.debug("event stream of {} closed: {}", restoreId, e.toString()); // the client went away
        } catch (RuntimeException e) {
            log.warn("event stream of {} failed", restoreId, e);
            emitter.completeWithError(e);
        }
    }
}
