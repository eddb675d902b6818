package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.contracts.work.SegmentWork;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Messages;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of the item-writer group: takes one segment at a time off {@code restore.segments}
 * and writes it on a worker thread while this thread keeps polling with every partition paused,
 * so that however long a segment takes, the member never exceeds {@code max.poll.interval.ms}
 * and is never thrown out of the group. A segment's offset is committed only after its
 * completion (or its failure) is on the status topic; a segment whose partition moves to another
 * member, or whose member dies, is written again from the start by the next owner.
 */
final class SegmentConsumer {

    private static final Logger log = LoggerFactory.getLogger(SegmentConsumer.class);

    private final Map<String, Object> config;
    private final SegmentWriter writer;
    private final EventPublisher publisher;
    private final ExecutorService pool;
    private final String name;
    private final int segmentAttempts;
    private final io.dynarestore.core.retry.Backoff segmentBackoff;
    private final Map<String, Integer> attempts = new HashMap<>();
    private final ConsumerThread thread;
    private KafkaConsumer<String, byte[]> consumer;
    private Job job;

    SegmentConsumer(Map<String, Object> config, SegmentWriter writer, EventPublisher publisher, ExecutorService pool,
                    String name, int segmentAttempts) {
        this.config = config;
        this.writer = writer;
        this.publisher = publisher;
        this.pool = pool;
        this.name = name;
        this.segmentAttempts = segmentAttempts;
        this.segmentBackoff = new io.dynarestore.core.retry.Backoff(segmentAttempts, Duration.ofSeconds(1),
                Duration.ofSeconds(30));
        this.thread = new ConsumerThread("segment-consumer-" + name, config, this::loop);
    }

    /** Consumer settings: manual commits, one record per poll, cooperative rebalancing. */
    static Map<String, Object> consumerConfig(Map<String, Object> base, String group, String clientId) {
        var c = new HashMap<>(base);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        // a dead writer's segments move to a live one after this long (unless configured otherwise)
        c.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        c.putIfAbsent(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 3_000);
        // only the partitions that move are revoked, so a rebalance does not restart every segment
        c.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        return c;
    }

    void start() {
        thread.start();
    }

    /** Stops polling; a segment under way is given up uncommitted, for the next owner to redo. */
    void stop() {
        thread.stop(Duration.ofSeconds(40));
    }

    private void loop(KafkaConsumer<String, byte[]> c) {
        consumer = c;
        try {
            c.subscribe(List.of(Topic.SEGMENTS.topicName()), new Rebalance());
            while (thread.running()) {
                if (job != null) {
                    c.pause(c.assignment());
                }
                var records = c.poll(Duration.ofMillis(200));
                if (job != null && job.future.isDone()) {
                    finish(c);
                }
                for (ConsumerRecord<String, byte[]> record : records) {
                    if (job != null) {
                        // only possible for a partition assigned while busy: take it again later
                        c.seek(new TopicPartition(record.topic(), record.partition()), record.offset());
                        continue;
                    }
                    start(c, record);
                }
            }
        } finally {
            abortJob();
        }
    }

    private void start(KafkaConsumer<String, byte[]> c, ConsumerRecord<String, byte[]> record) {
        var tp = new TopicPartition(record.topic(), record.partition());
        SegmentWork work = Messages.segmentWork(record.value());
        if (!(work instanceof SegmentDispatched segment) || !valid(record.value())) {
            String reason = "not a valid SegmentDispatched message (see " + Schemas.uriOf("SegmentDispatched") + ")";
            log.warn("{}-{}@{}: {}; sent to the DLT", record.topic(), record.partition(), record.offset(), reason);
            DeadLetters.send(publisher, record, "INVALID_WORK_ITEM", reason, null);
            c.commitSync(Map.of(tp, new OffsetAndMetadata(record.offset() + 1)));
            return;
        }
        var abort = new AtomicBoolean();
        Future<Outcome> future = pool.submit(() -> write(segment, abort));
        job = new Job(tp, record, segment, abort, future);
        c.pause(c.assignment());
    }

    private static boolean valid(byte[] value) {
        try {
            return Schemas.validate("SegmentDispatched", Json.mapper().readTree(value)).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private Outcome write(SegmentDispatched segment, AtomicBoolean abort) {
        String writerId = name;
        try {
            writer.write(segment, writerId, abort::get);
            return Outcome.DONE;
        } catch (SegmentAbortedException e) {
            return Outcome.ABORTED;
        } catch (PermanentWriteException | io.dynarestore.core.filter.InvalidFilterException e) {
            log.warn("restore {} segment {} failed: {}", segment.restoreId(), segment.segment(), e.getMessage());
            publisher.status(SegmentFailed.of(segment.restoreId(), segment.segment(), e.getMessage(), 0, writerId));
            return Outcome.FAILED;
        } catch (RuntimeException e) {
            log.warn("restore {} segment {} interrupted by a transient failure: {}", segment.restoreId(),
                    segment.segment(), e.toString());
            return Outcome.RETRY;
        }
    }

    private void finish(KafkaConsumer<String, byte[]> c) {
        Job j = job;
        job = null;
        Outcome outcome;
        try {
            outcome = j.future.get();
        } catch (Exception e) {
            outcome = Outcome.RETRY;
        }
        String key = j.segment.restoreId() + "/" + j.segment.segment();
        switch (outcome) {
            case DONE, FAILED -> {
                attempts.remove(key);
                c.commitSync(Map.of(j.partition, new OffsetAndMetadata(j.record.offset() + 1)));
            }
            case RETRY -> {
                int n = attempts.merge(key, 1, Integer::sum);
                if (n >= segmentAttempts) {
                    attempts.remove(key);
                    publisher.status(SegmentFailed.of(j.segment.restoreId(), j.segment.segment(),
                            "gave up after " + n + " attempts: DynamoDB or S3 kept failing", 0, name));
                    c.commitSync(Map.of(j.partition, new OffsetAndMetadata(j.record.offset() + 1)));
                } else {
                    segmentBackoff.pause(n);
                    c.seek(j.partition, j.record.offset());
                }
            }
            case ABORTED -> c.seek(j.partition, j.record.offset());
        }
        c.resume(c.paused());
    }

    /** Stops the current segment without committing it: another member (or this one) redoes it. */
    private void abortJob() {
        Job j = job;
        if (j == null) {
            return;
        }
        j.abort.set(true);
        try {
            j.future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            j.future.cancel(true);
        }
        job = null;
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            if (job != null && revoked.contains(job.partition)) {
                log.info("partition {} moved away while segment {} of {} was being written; its new owner redoes it",
                        job.partition, job.segment.segment(), job.segment.restoreId());
                abortJob();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            if (job != null) {
                consumer.pause(assigned);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            onPartitionsRevoked(lost);
        }
    }

    private enum Outcome { DONE, FAILED, RETRY, ABORTED }

    private record Job(TopicPartition partition, ConsumerRecord<String, byte[]> record, SegmentDispatched segment,
                       AtomicBoolean abort, Future<Outcome> future) {
    }
}
