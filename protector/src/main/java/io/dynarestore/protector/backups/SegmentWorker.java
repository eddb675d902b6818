package io.dynarestore.protector.backups;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ProtectionRejectionCode;
import io.dynarestore.contracts.protection.ScanSegmentRequested;
import io.dynarestore.contracts.protection.ScanWork;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.retry.Pacer;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.rejections.Rejections;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Scans the SCAN-backup segments this replica is assigned on {@code restore.protection.scans}
 * (consumer group {@code <group>-scans}), at most {@code workers} at once, each into the vault with
 * its own pacer at the segment's budget.
 *
 * <p>Rule: a segment's offset is committed only once the segment is done or its failure is
 * recorded (offsets commit up to the oldest segment still running), so that a replica that dies
 * has its segments scanned again by the next one, on from their checkpoints. A partition taken
 * away first stops its running segments. A segment asked for again while it runs here, or for a
 * backup already listed, is skipped; one that cannot be read goes to the dead-letter topic.
 */
public final class SegmentWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SegmentWorker.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final AwsClients aws;
    private final VaultLayout layout;
    private final Rejections rejections;
    private final SegmentFailures failures;
    private final int workers;
    private final ExecutorService pool;
    private final ConsumerThread thread;
    private final Counter scanned;
    private final Map<TopicPartition, PartitionSegments<Segment>> running = new HashMap<>();
    private volatile Set<Integer> assigned = Set.of();

    public SegmentWorker(
            AwsClients aws,
            VaultLayout layout,
            EventPublisher publisher,
            int workers,
            String group,
            Map<String, Object> consumerConfig,
            ConsumerHealth health,
            MeterRegistry registry) {
        this.aws = aws;
        this.layout = layout;
        this.rejections = new Rejections(publisher);
        this.failures = new SegmentFailures(aws.s3(), layout);
        this.workers = workers;
        this.pool = Executors.newFixedThreadPool(workers, DaemonThreads.named("scan-segment"));
        this.scanned = Counter.builder("dynarestore.protector.scan.segments").register(registry);
        var config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group + "-scans");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1); // a record is hours of work: take one when a worker is free
        // a replica that joins or leaves moves only the partitions it must: the others' scans go on
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        this.thread = new ConsumerThread("protector-scans", config, health, this::loop);
    }

    /** A segment scanning here; {@code ended} once its thread has left it (a cancelled future may still run). */
    private record Segment(String key, Future<?> future, CountDownLatch ended) {}

    public void start() {
        thread.start();
    }

    /** The segments this replica has scanned to their end since it started. */
    public long scannedSegments() {
        return (long) scanned.count();
    }

    /** The partitions of {@code restore.protection.scans} this replica is assigned now. */
    public Set<Integer> assignedPartitions() {
        return assigned;
    }

    private static Set<Integer> partitionsOf(KafkaConsumer<String, byte[]> consumer) {
        var partitions = new TreeSet<Integer>();
        consumer.assignment().forEach(tp -> partitions.add(tp.partition()));
        return Set.copyOf(partitions);
    }

    private void loop(KafkaConsumer<String, byte[]> consumer) {
        consumer.subscribe(List.of(Topic.PROTECTION_SCANS.topicName()), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                stop(partitions);
                commit(consumer, partitions);
                partitions.forEach(running::remove);
                assigned = partitionsOf(consumer);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // another replica has them already: stop, and commit nothing
                stop(partitions);
                partitions.forEach(running::remove);
                assigned = partitionsOf(consumer);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                assigned = partitionsOf(consumer);
            }
        });
        try {
            while (thread.running()) {
                try {
                    turn(consumer);
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // one turn's trouble (a dead letter that could not be sent) stops no scan: what was not
                    // committed is read again by this partition's next owner
                    log.warn("scanning segments: {}; going on", e.toString());
                    pauseAfterTrouble();
                }
            }
        } finally {
            stop(List.copyOf(running.keySet()));
        }
    }

    /** Reaps and commits what ended, pauses or resumes by the free workers, and takes what the poll brings. */
    private void turn(KafkaConsumer<String, byte[]> consumer) {
        reap();
        commit(consumer, running.keySet());
        if (inFlight() >= workers) {
            consumer.pause(consumer.assignment());
        } else {
            consumer.resume(consumer.paused());
        }
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
            if (inFlight() >= workers) {
                // from a partition assigned during the poll, unpaused: read again when a worker is free
                consumer.seek(new TopicPartition(record.topic(), record.partition()), record.offset());
                continue;
            }
            try {
                take(record);
            } catch (RuntimeException e) {
                // read it again, so that no later offset is committed past it
                consumer.seek(new TopicPartition(record.topic(), record.partition()), record.offset());
                throw e;
            }
        }
    }

    private static void pauseAfterTrouble() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WakeupException();
        }
    }

    private void take(ConsumerRecord<String, byte[]> record) {
        var tp = new TopicPartition(record.topic(), record.partition());
        PartitionSegments<Segment> r = running.computeIfAbsent(tp, p -> new PartitionSegments<>());
        ScanSegmentRequested request;
        try {
            request = (ScanSegmentRequested) Json.mapper().readValue(record.value(), ScanWork.class);
            String problem = problem(request);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        } catch (RuntimeException e) {
            rejections.reject(
                    record,
                    ProtectionRejectionCode.INVALID_SCAN_SEGMENT,
                    "not a valid ScanSegmentRequested: " + e.getMessage()
                            + "; fix the producer (only protector replicas write this topic)");
            r.passed(record.offset());
            return;
        }
        String key = request.subject();
        if (r.runs(key)) {
            log.info("segment {} is asked for again while it runs here: skipped", key);
            r.passed(record.offset());
            return;
        }
        var ended = new CountDownLatch(1);
        Future<?> future = pool.submit(() -> {
            try {
                scan(request);
            } finally {
                ended.countDown();
            }
            return null;
        });
        r.started(record.offset(), key, new Segment(key, future, ended));
    }

    /** What makes a request impossible to act on, or {@code null}. */
    private String problem(ScanSegmentRequested r) {
        if (r.segments() < 1 || r.segment() < 0 || r.segment() >= r.segments()) {
            return "segment " + r.segment() + " is not one of " + r.segments();
        }
        if (r.itemsPerFile() < 1 || r.pageLimit() < 1 || !(r.readUnitsPerSecond() >= 0) || r.takenAt() == null) {
            return "itemsPerFile and pageLimit must be at least 1, readUnitsPerSecond at least 0, and takenAt set";
        }
        if (!aws.allows(r.account(), r.region())) {
            return "account " + r.account() + " in " + r.region() + " is not configured here";
        }
        return null;
    }

    private void scan(ScanSegmentRequested r) throws InterruptedException {
        var job = new SegmentScan.Job(
                r.account(),
                r.region(),
                r.table(),
                r.backupId(),
                r.segments(),
                r.itemsPerFile(),
                r.pageLimit(),
                r.takenAt());
        String listed = layout.backupPrefix(r.account(), r.region(), r.table(), r.backupId()) + VaultLayout.BACKUP_JSON;
        try {
            if (exists(listed)) {
                log.info("segment {}: backup {} is listed already, nothing to scan", r.subject(), r.backupId());
                return;
            }
            var dynamo = aws.dynamo(r.account(), r.region());
            var description = dynamo.describeTable(b -> b.tableName(r.table())).table();
            new SegmentScan(dynamo, aws.s3(), layout)
                    .scan(job, description, r.segment(), new Pacer(), r.readUnitsPerSecond(), n -> {});
            scanned.increment();
        } catch (InterruptedException e) {
            throw e; // taken away or stopping: the next assignee goes on from the checkpoint
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()
                    || e instanceof AbortedException
                    || e.getCause() instanceof InterruptedException) {
                return; // an SDK call cut short by the stop; nothing is recorded, the next assignee goes on
            }
            log.warn("segment {} failed: {}", r.subject(), e.toString());
            failures.record(job, r.segment(), String.valueOf(e.getMessage()));
        }
    }

    private boolean exists(String key) {
        try {
            aws.s3().headObject(b -> b.bucket(layout.bucket()).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    /** Drops the segments that ended (done, failed or skipped) from what runs. */
    private void reap() {
        running.values().forEach(r -> r.reap(s -> s.ended().getCount() == 0));
    }

    private int inFlight() {
        return running.values().stream().mapToInt(PartitionSegments::size).sum();
    }

    private void commit(KafkaConsumer<String, byte[]> consumer, Collection<TopicPartition> partitions) {
        var offsets = new HashMap<TopicPartition, OffsetAndMetadata>();
        for (TopicPartition tp : partitions) {
            PartitionSegments<Segment> r = running.get(tp);
            if (r != null) {
                r.toCommit().ifPresent(at -> offsets.put(tp, new OffsetAndMetadata(at)));
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets);
            offsets.forEach((tp, at) -> {
                var r = running.get(tp);
                if (r != null) {
                    r.committed(at.offset());
                }
            });
        } catch (RebalanceInProgressException | RetriableCommitFailedException e) {
            // a rebalance is under way: the next turn of the loop commits again, after it
            log.debug("commit of {} waits for the rebalance: {}", offsets.keySet(), e.toString());
        } catch (CommitFailedException e) {
            // the partitions went to another replica: it scans their unfinished segments on from the checkpoints
            log.info("commit of {} refused, the partitions moved: {}", offsets.keySet(), e.toString());
        }
    }

    /** Interrupts the segments of {@code partitions} and waits (bounded) for them to end; what ended counts. */
    private void stop(Collection<TopicPartition> partitions) {
        Set<Segment> stopping = new HashSet<>();
        for (TopicPartition tp : partitions) {
            PartitionSegments<Segment> r = running.get(tp);
            if (r != null) {
                r.all().forEach(s -> {
                    s.future().cancel(true);
                    stopping.add(s);
                });
            }
        }
        long until = System.nanoTime() + STOP_WAIT.toNanos();
        for (Segment s : stopping) {
            try {
                if (!s.ended().await(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    log.warn("segment {} did not stop within {}", s.key(), STOP_WAIT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        thread.stop(STOP_WAIT.plusSeconds(5));
        pool.shutdownNow();
    }
}
