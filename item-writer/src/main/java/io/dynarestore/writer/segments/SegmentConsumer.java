package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentCancelled;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.contracts.work.SegmentWork;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.writer.capacity.WriteBudgets;
import io.dynarestore.writer.segments.SegmentAttempt.Kind;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
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
    private static final Duration IDLE_POLL = Duration.ofMillis(200);
    private static final Duration JOB_POLL = Duration.ofMillis(20);

    private final Map<String, Object> config;
    private final SegmentAttempt attempt;
    private final EventPublisher publisher;
    private final ExecutorService pool;
    private final String name;
    private final int segmentAttempts;
    private final Backoff segmentBackoff;
    private final Map<String, Integer> attempts = new HashMap<>();
    private final ConsumerThread thread;
    private final WriteBudgets budgets;
    private KafkaConsumer<String, byte[]> consumer;
    private Job job;

    private final Cancellations cancellations;
    private final MeterRegistry meters;

    SegmentConsumer(
            Map<String, Object> config,
            SegmentWriter writer,
            EventPublisher publisher,
            ExecutorService pool,
            String name,
            int segmentAttempts,
            WriteBudgets budgets,
            Outages outages,
            Cancellations cancellations,
            MeterRegistry meters,
            ConsumerHealth health) {
        this.cancellations = cancellations;
        this.meters = meters;
        this.budgets = budgets;
        this.config = config;
        this.publisher = publisher;
        this.pool = pool;
        this.name = name;
        this.attempt = new SegmentAttempt(writer, publisher, cancellations, outages, name);
        this.segmentAttempts = segmentAttempts;
        this.segmentBackoff = new Backoff(segmentAttempts, Duration.ofSeconds(1), Duration.ofSeconds(30));
        this.thread = new ConsumerThread("segment-consumer-" + name, config, health, this::loop);
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
            budgets.totalPartitions(c.partitionsFor(Topic.SEGMENTS.topicName()).size());
            while (thread.running()) {
                if (job != null) {
                    c.pause(c.assignment());
                    commitCheckpoint(c, job);
                } else if (!c.paused().isEmpty()) {
                    // a job given up in a rebalance callback leaves the partitions paused; take work again
                    c.resume(c.paused());
                }
                var records = poll(c);
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
            commitPast(c, tp, record.offset());
            return;
        }
        if (cancellations.cancelled(segment.restoreId())) {
            // the restore was cancelled before this segment was started: nothing of it is written
            publisher.status(SegmentCancelled.of(segment.restoreId(), segment.segment(), 0, 0, name));
            commitPast(c, tp, record.offset());
            return;
        }
        Checkpoint resume = null;
        try {
            OffsetAndMetadata committed = c.committed(Set.of(tp)).get(tp);
            if (committed != null && committed.offset() == record.offset()) {
                resume = Checkpoint.of(committed.metadata(), segment.restoreId(), segment.segment());
            }
        } catch (RuntimeException e) {
            log.warn(
                    "could not read the checkpoint of {}; writing segment {} of {} from its start",
                    tp,
                    segment.segment(),
                    segment.restoreId());
        }
        if (resume != null) {
            log.info(
                    "restore {} segment {}: resuming after line {} (its checkpoint)",
                    segment.restoreId(),
                    segment.segment(),
                    resume.lines());
        }
        var abort = new AtomicBoolean();
        var j = new Job(tp, record, segment, abort, new AtomicReference<>(resume));
        Checkpoint from = resume;
        j.future = pool.submit(() -> attempt.run(segment, abort, from, j.latest::set));
        j.committed = resume;
        job = j;
        c.pause(c.assignment());
    }

    /**
     * Commits past a work item that is finished. During a rebalance the commit fails; the consumer
     * goes on (it must keep polling to finish the rebalance), and the partition's next owner, which
     * sees the item uncommitted, does it again: writes are idempotent, at least once.
     */
    private void commitPast(KafkaConsumer<String, byte[]> c, TopicPartition tp, long offset) {
        try {
            c.commitSync(Map.of(tp, new OffsetAndMetadata(offset + 1)));
        } catch (RebalanceInProgressException | CommitFailedException e) {
            log.info("{} offset {} not committed, a rebalance is under way; its next owner redoes it", tp, offset);
        }
    }

    /** Commits the segment's latest checkpoint as the metadata of its own (unmoved) offset. */
    private void commitCheckpoint(KafkaConsumer<String, byte[]> c, Job j) {
        Checkpoint latest = j.latest.get();
        if (latest == null || latest == j.committed) {
            return;
        }
        try {
            c.commitSync(Map.of(j.partition, new OffsetAndMetadata(j.record.offset(), latest.toJson())));
            j.committed = latest;
        } catch (RuntimeException e) {
            // a rebalance under way: the next owner resumes from an earlier checkpoint, or the start
            log.debug("checkpoint of {} not committed: {}", j.partition, e.toString());
        }
    }

    /**
     * The next records. While a segment is written, a short poll (its partitions are paused, so
     * it fetches nothing), so that the next segment is taken within {@code JOB_POLL} of the last
     * one's end (ADR 0039); idle, a long one.
     */
    private ConsumerRecords<String, byte[]> poll(KafkaConsumer<String, byte[]> c) {
        return c.poll(job != null ? JOB_POLL : IDLE_POLL);
    }

    private static boolean valid(byte[] value) {
        try {
            return Schemas.validate("SegmentDispatched", Json.mapper().readTree(value))
                    .isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void finish(KafkaConsumer<String, byte[]> c) {
        Job j = job;
        job = null;
        SegmentAttempt.Outcome outcome;
        try {
            outcome = j.future.get();
        } catch (Exception e) {
            outcome = SegmentAttempt.Outcome.of(Kind.RETRY);
        }
        String key = j.segment.restoreId() + "/" + j.segment.segment();
        Timer.builder("dynarestore.writer.segment.duration")
                .description("time one attempt at a segment took, by how it ended")
                .tag("outcome", outcome.kind().name())
                .register(meters)
                .record(System.nanoTime() - j.started, TimeUnit.NANOSECONDS);
        commitCheckpoint(c, j);
        switch (outcome.kind()) {
            case DONE, CANCELLED -> {
                attempts.remove(key);
                commitPast(c, j.partition, j.record.offset());
            }
            case FAILED -> {
                attempts.remove(key);
                // never a silent skip: the work item goes to the DLT, its SegmentFailed is on the status topic
                DeadLetters.send(publisher, j.record, "SEGMENT_FAILED", outcome.reason(), null);
                commitPast(c, j.partition, j.record.offset());
            }
            case OUTAGE -> c.seek(j.partition, j.record.offset()); // resumes from its checkpoint, no attempt spent
            case RETRY -> {
                int n = attempts.merge(key, 1, Integer::sum);
                if (n >= segmentAttempts) {
                    attempts.remove(key);
                    String reason = "gave up after " + n + " attempts: DynamoDB or S3 kept failing";
                    publisher.status(SegmentFailed.of(j.segment.restoreId(), j.segment.segment(), reason, 0, name));
                    DeadLetters.send(publisher, j.record, "SEGMENT_FAILED", reason, null);
                    commitPast(c, j.partition, j.record.offset());
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
            budgets.partitionsRevoked(numbers(revoked));
            if (job != null && revoked.contains(job.partition)) {
                commitCheckpoint(consumer, job); // the next owner resumes from here
            }
            if (job != null && revoked.contains(job.partition)) {
                log.info(
                        "partition {} moved away while segment {} of {} was being written; its new owner redoes it",
                        job.partition,
                        job.segment.segment(),
                        job.segment.restoreId());
                abortJob();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            budgets.partitionsAssigned(numbers(assigned));
            if (job != null) {
                consumer.pause(assigned);
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            onPartitionsRevoked(lost);
        }
    }

    private static List<Integer> numbers(Collection<TopicPartition> partitions) {
        return partitions.stream()
                .filter(tp -> tp.topic().equals(Topic.SEGMENTS.topicName()))
                .map(TopicPartition::partition)
                .toList();
    }

    /** The segment under way: its record, its worker's future and its latest and last committed checkpoints. */
    private static final class Job {
        final TopicPartition partition;
        final ConsumerRecord<String, byte[]> record;
        final SegmentDispatched segment;
        final AtomicBoolean abort;
        final AtomicReference<Checkpoint> latest;
        volatile Future<SegmentAttempt.Outcome> future;
        Checkpoint committed;
        final long started = System.nanoTime();

        Job(
                TopicPartition partition,
                ConsumerRecord<String, byte[]> record,
                SegmentDispatched segment,
                AtomicBoolean abort,
                AtomicReference<Checkpoint> latest) {
            this.partition = partition;
            this.record = record;
            this.segment = segment;
            this.abort = abort;
            this.latest = latest;
        }
    }
}
