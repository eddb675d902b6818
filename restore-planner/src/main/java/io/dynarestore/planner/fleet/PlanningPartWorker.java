package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.work.PlanningWork;
import io.dynarestore.contracts.work.SweepPartDispatched;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.staging.DeltaInput;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepInput;
import io.dynarestore.planner.staging.SweepStager;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Builds the planning parts this replica is assigned on {@code restore.planning} (consumer group
 * {@code <group>-planning}), one at a time: a delta part reads every change of its input and keeps
 * the keys of its slice of the key-hash space (ADR 0038); a sweep part scans its Scan segment of the
 * table and compares it with the image (ADR 0040).
 *
 * <p>Rule: a part's offset is committed only once its outcome is in the vault (built, or failed with
 * the reason), so that the part of a replica that dies is built by the next assignee; a part taken
 * away is interrupted and left uncommitted. A part whose input is gone (its planning ended) is
 * passed over; a record that is not a valid part goes to the dead-letter topic.
 */
public final class PlanningPartWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlanningPartWorker.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);
    private static final Set<String> KINDS = Set.of("DeltaPartDispatched", "SweepPartDispatched");

    private final DeltaStager stager;
    private final SweepStager sweeper;
    private final DynamoClients dynamo;
    private final S3Client s3;
    private final VaultLayout layout;
    private final EventPublisher publisher;
    private final ExecutorService pool;
    private final ConsumerThread thread;
    private final Counter built;
    private final Counter swept;
    private Running current;

    /** The part building here, from the record at {@code offset} of {@code partition}. */
    private record Running(TopicPartition partition, long offset, Future<?> future, CountDownLatch ended) {}

    public PlanningPartWorker(
            DeltaStager stager,
            SweepStager sweeper,
            DynamoClients dynamo,
            S3Client s3,
            VaultLayout layout,
            EventPublisher publisher,
            String group,
            Map<String, Object> consumerConfig,
            ConsumerHealth health,
            MeterRegistry registry) {
        this.stager = stager;
        this.sweeper = sweeper;
        this.dynamo = dynamo;
        this.s3 = s3;
        this.layout = layout;
        this.publisher = publisher;
        this.pool = Executors.newSingleThreadExecutor(DaemonThreads.named("planning-part"));
        this.built = Counter.builder("dynarestore.planner.delta.parts").register(registry);
        this.swept = Counter.builder("dynarestore.planner.sweep.parts").register(registry);
        var config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group + "-planning");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1); // a part is minutes of work: take one when free
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        this.thread = new ConsumerThread("planner-parts", config, health, this::loop);
    }

    public void start() {
        thread.start();
    }

    /** The delta parts this replica has built since it started. */
    public long builtParts() {
        return (long) built.count();
    }

    /** The sweep parts this replica has built since it started. */
    public long sweptParts() {
        return (long) swept.count();
    }

    private void loop(KafkaConsumer<String, byte[]> consumer) {
        consumer.subscribe(List.of(Topic.PLANNING.topicName()), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                stopIfIn(partitions, consumer, true);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                stopIfIn(partitions, consumer, false); // another replica has them already: commit nothing
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                // nothing to set up: a part is read from the vault when it is taken
            }
        });
        try {
            while (thread.running()) {
                try {
                    turn(consumer);
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // one turn's trouble (a dead letter that could not be sent) stops no part: what was
                    // not committed is read again by this partition's next owner
                    log.warn("building delta parts: {}; going on", e.toString());
                    pause();
                }
            }
        } finally {
            if (current != null) {
                stop(current);
            }
        }
    }

    private void turn(KafkaConsumer<String, byte[]> consumer) {
        if (current != null && current.ended().getCount() == 0) {
            commit(consumer, current.partition(), current.offset() + 1);
            current = null;
        }
        if (current != null) {
            consumer.pause(consumer.assignment());
        } else {
            consumer.resume(consumer.paused());
        }
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
            var tp = new TopicPartition(record.topic(), record.partition());
            if (current != null) {
                consumer.seek(tp, record.offset()); // from a partition assigned during the poll: later
                continue;
            }
            PlanningWork work = parse(record.value());
            if (work == null) {
                String reason = "not a valid DeltaPartDispatched or SweepPartDispatched message (see "
                        + Schemas.uriOf("DeltaPartDispatched") + ", " + Schemas.uriOf("SweepPartDispatched")
                        + "); only restore-planner replicas write " + Topic.PLANNING.topicName();
                log.warn("{}-{}@{}: {}; sent to the DLT", record.topic(), record.partition(), record.offset(), reason);
                DeadLetters.send(publisher, record, "INVALID_WORK_ITEM", reason, null);
                commit(consumer, tp, record.offset() + 1);
                continue;
            }
            var ended = new CountDownLatch(1);
            Future<?> future = pool.submit(() -> {
                try {
                    build(work);
                } finally {
                    ended.countDown();
                }
            });
            current = new Running(tp, record.offset(), future, ended);
        }
    }

    /** The part a record asks for, or {@code null} when it is not one (its fields become vault keys). */
    static PlanningWork parse(byte[] value) {
        try {
            var tree = Json.mapper().readTree(value);
            String type = tree.path("type").asString("");
            if (!KINDS.contains(type) || !Schemas.validate(type, tree).isEmpty()) {
                return null;
            }
            var work = Json.mapper().readValue(value, PlanningWork.class);
            return work.type().equals(type) && work.part() < work.parts() ? work : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void build(PlanningWork work) {
        var files = PartFiles.of(layout, work);
        String bucket = layout.bucket();
        byte[] input;
        try {
            if (exists(files.outcome(work.part()))) {
                log.info("part {} of {} of {} is built already", work.part(), work.parts(), work.restoreId());
                return;
            }
            input = s3.getObjectAsBytes(b -> b.bucket(bucket).key(files.input()))
                    .asByteArray();
        } catch (NoSuchKeyException e) {
            log.info(
                    "part {} of {}: its input is gone (the planning ended); passed over",
                    work.part(),
                    work.restoreId());
            return;
        }
        PartOutcome outcome;
        try {
            outcome = work instanceof SweepPartDispatched
                    ? sweep(files.part(work.part()), Json.mapper().readValue(input, SweepInput.class), work)
                    : PartOutcome.built(
                            work.part(),
                            stager.stagePart(
                                    files.part(work.part()),
                                    Json.mapper().readValue(input, DeltaInput.class),
                                    new KeyRange(work.part(), work.parts())));
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()
                    || e instanceof AbortedException
                    || e.getCause() instanceof InterruptedException) {
                return; // taken away or stopping: the next assignee builds it again
            }
            log.warn("part {} of {} of {} failed: {}", work.part(), work.parts(), work.restoreId(), e.toString());
            outcome = PartOutcome.failed(work.part(), String.valueOf(e.getMessage()));
        }
        // counted before the outcome, which ends the owner's wait
        if (outcome.staged() != null) {
            built.increment();
        }
        if (outcome.sweep() != null) {
            swept.increment();
        }
        var written = outcome;
        s3.putObject(
                b -> b.bucket(bucket).key(files.outcome(work.part())).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(written)));
    }

    private PartOutcome sweep(String prefix, SweepInput input, PlanningWork work) {
        return PartOutcome.swept(
                work.part(),
                sweeper.stagePart(
                        prefix, input, dynamo.dynamo(input.account(), input.region()), work.part(), work.parts()));
    }

    private boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket(layout.bucket()).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    private void commit(KafkaConsumer<String, byte[]> consumer, TopicPartition tp, long next) {
        try {
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(next)));
        } catch (RebalanceInProgressException | RetriableCommitFailedException e) {
            // the part's outcome is in the vault: a redelivery finds it and passes it over
            log.debug("commit of {} waits for the rebalance: {}", tp, e.toString());
        } catch (CommitFailedException e) {
            log.info("commit of {} refused, the partition moved: {}", tp, e.toString());
        }
    }

    /** Stops the running part if its partition is among {@code partitions}; commits it if it ended and may. */
    private void stopIfIn(
            Collection<TopicPartition> partitions, KafkaConsumer<String, byte[]> consumer, boolean mayCommit) {
        if (current == null || !partitions.contains(current.partition())) {
            return;
        }
        if (current.ended().getCount() == 0) {
            if (mayCommit) {
                commit(consumer, current.partition(), current.offset() + 1);
            }
        } else {
            stop(current);
        }
        current = null;
    }

    private static void stop(Running running) {
        running.future().cancel(true);
        try {
            if (!running.ended().await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn(
                        "the part from {}@{} did not stop within {}", running.partition(), running.offset(), STOP_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WakeupException();
        }
    }

    @Override
    public void close() {
        thread.stop(STOP_WAIT.plusSeconds(5));
        pool.shutdownNow();
    }
}
