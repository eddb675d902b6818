package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.Partitions;
import io.dynarestore.core.retry.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The planner's one consumer loop. It owns partition {@code p} of {@code restore.requests} and
 * of {@code restore.status} together (range assignment over topics of equal partition count).
 * When it gains a status partition it first replays it from the start, so that its view of
 * every restore there is the log's, then goes on from the end. Requests are judged on this
 * thread; steps (planning, table creation, dispatch, completion) run on a bounded pool and hand
 * their events back here, so the views are only ever touched by this thread. Offsets of a
 * request are committed only after its verdict is on the status topic: a crash loses nothing.
 * The loop hands work to named collaborators: {@link RequestIntake} (requests),
 * {@link RestoreCommands} (cancel, rollback), {@link RestoreSteps} (on the pool),
 * {@link ProgressReporter}, {@link RestoreMeters} and {@link StatusReplay}.
 */
public final class PlannerLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PlannerLoop.class);
    /** Between polls while a record could not be handled (Kafka, S3 or DynamoDB unavailable); never gives up. */
    private static final Duration IDLE_POLL = Duration.ofMillis(200);

    private static final Duration STEP_POLL = Duration.ofMillis(10);
    private static final Backoff STALLED = Backoff.untilStopped(Duration.ofMillis(100), Duration.ofSeconds(5));

    private final Map<String, Object> consumerConfig;
    private final RequestIntake intake;
    private final RestoreSteps steps;
    private final EventPublisher publisher;
    private final ExecutorService workers;
    private final OwnedRestores owned;
    private final ConcurrentLinkedQueue<StepDone> done = new ConcurrentLinkedQueue<>();
    // restores whose step asked to be taken again later (an import or Snap restore under way,
    // a refused put-back); bounded by the restores this planner owns
    private final PriorityQueue<Wake> wakes = new PriorityQueue<>();
    private final ConsumerThread thread;
    private KafkaConsumer<String, byte[]> consumer;
    private int stepsRunning; // submitted and not yet drained; the loop's thread only
    private int partitions;

    private final ProgressReporter progress;
    private final RestoreMeters meters;
    private final RestoreCommands commands;
    private final StatusReplay replay;
    private long nextAgeOut;

    PlannerLoop(
            Map<String, Object> consumerConfig,
            RequestIntake intake,
            RestoreSteps steps,
            EventPublisher publisher,
            ExecutorService workers,
            Duration progressInterval,
            MeterRegistry meters,
            ConsumerHealth health,
            Duration retainEnded) {
        this.owned = new OwnedRestores(retainEnded);
        this.meters = new RestoreMeters(meters);
        this.progress = new ProgressReporter(owned, publisher, progressInterval, this.meters);
        this.commands = new RestoreCommands(owned, intake, publisher, this::drive);
        this.replay = new StatusReplay(consumerConfig, owned);
        this.consumerConfig = consumerConfig;
        this.intake = intake;
        this.steps = steps;
        this.publisher = publisher;
        this.workers = workers;
        this.thread = new ConsumerThread("planner-loop", consumerConfig, health, this::loop);
    }

    /** Consumer settings of the loop: manual commits, range assignment, generous poll interval. */
    public static Map<String, Object> consumerConfig(Map<String, Object> base, String group) {
        var config = new HashMap<>(base);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 600_000);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        return config;
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public void stop() {
        thread.stop(Duration.ofSeconds(30));
    }

    @Override
    public boolean isRunning() {
        return thread.running();
    }

    private void loop(KafkaConsumer<String, byte[]> c) {
        consumer = c;
        partitions = checkPartitionCounts(c);
        c.subscribe(
                List.of(Topic.REQUESTS.topicName(), Topic.COMMANDS.topicName(), Topic.STATUS.topicName()),
                new Rebalance());
        int stalls = 0;
        while (thread.running()) {
            var records = poll(c);
            var commits = new HashMap<TopicPartition, OffsetAndMetadata>();
            Set<TopicPartition> stalled = new HashSet<>();
            for (ConsumerRecord<String, byte[]> record : records) {
                var tp = new TopicPartition(record.topic(), record.partition());
                if (stalled.contains(tp)) {
                    continue;
                }
                try {
                    onRecord(record);
                    commits.put(tp, new OffsetAndMetadata(record.offset() + 1));
                } catch (RuntimeException e) {
                    // Kafka, S3 or DynamoDB unavailable: take the record again after a pause
                    log.warn(
                            "could not handle {}-{}@{}, will retry: {}",
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            e.toString());
                    stalled.add(tp);
                    c.seek(tp, record.offset());
                }
            }
            drainSteps();
            wakeDue();
            progress.report();
            ageOut();
            if (!commits.isEmpty()) {
                c.commitSync(commits);
            }
            if (stalled.isEmpty()) {
                stalls = 0;
            } else {
                STALLED.pause(++stalls);
            }
        }
    }

    /**
     * The next records. While steps run, a short poll, so that a step's events are taken within
     * {@code STEP_POLL} of its end instead of at the end of a long poll (ADR 0039); idle, a long one.
     */
    private ConsumerRecords<String, byte[]> poll(KafkaConsumer<String, byte[]> c) {
        return c.poll(stepsRunning > 0 || !done.isEmpty() ? STEP_POLL : IDLE_POLL);
    }

    /** requests, commands and status must be co-partitioned; refuse to start otherwise. */
    private static int checkPartitionCounts(KafkaConsumer<String, byte[]> c) {
        int requests = c.partitionsFor(Topic.REQUESTS.topicName(), Duration.ofSeconds(30))
                .size();
        int status = c.partitionsFor(Topic.STATUS.topicName(), Duration.ofSeconds(30))
                .size();
        int commands = c.partitionsFor(Topic.COMMANDS.topicName(), Duration.ofSeconds(30))
                .size();
        if (commands != status) {
            throw new IllegalStateException(Topic.COMMANDS.topicName() + " has " + commands + " partitions and "
                    + Topic.STATUS.topicName() + " has " + status
                    + "; they must be equal, so that a restore's commands "
                    + "reach the planner that owns it. Recreate " + Topic.COMMANDS.topicName() + ".");
        }
        if (requests != status || requests == 0) {
            throw new IllegalStateException(Topic.REQUESTS.topicName() + " has " + requests + " partitions and "
                    + Topic.STATUS.topicName() + " has " + status + "; they must be equal (and non-zero) so that "
                    + "a restore's requests and events are on the same partition number. Recreate one of them.");
        }
        return status;
    }

    private void onRecord(ConsumerRecord<String, byte[]> record) {
        if (record.topic().equals(Topic.STATUS.topicName())) {
            onStatus(record);
        } else if (record.topic().equals(Topic.COMMANDS.topicName())) {
            commands.handle(record);
        } else {
            TrackedRestore accepted = intake.handle(record, owned, partitions);
            if (accepted != null) {
                drive(accepted);
            }
        }
    }

    private void onStatus(ConsumerRecord<String, byte[]> record) {
        RestoreEvent event = Messages.statusEvent(record.value());
        if (event == null || event.restoreId() == null) {
            log.warn(
                    "skipping a status message that is not a known event at {}-{}@{}",
                    record.topic(),
                    record.partition(),
                    record.offset());
            return;
        }
        TrackedRestore restore = owned.forEvent(record.partition(), event);
        restore.applyFromLog(event);
        drive(restore);
    }

    /** Starts the restore's next step, if it needs one and none is under way. */
    private void drive(TrackedRestore restore) {
        if (restore.stepInFlight) {
            return;
        }
        RestoreSteps.Step step = RestoreSteps.next(restore.view);
        if (step == null) {
            return;
        }
        restore.stepInFlight = true;
        stepsRunning++;
        int partition = Partitions.of(restore.restoreId, partitions);
        var view = RestoreSteps.Snapshot.of(restore.view);
        workers.submit(() -> {
            RestoreSteps.Outcome outcome;
            try {
                outcome = steps.run(step, view);
            } catch (RuntimeException e) {
                log.warn("restore {}: step {} failed", restore.restoreId, step, e);
                outcome = new RestoreSteps.Outcome(failure(restore.restoreId, step, e, view.itemsWritten()), null);
            }
            done.add(new StepDone(partition, restore.restoreId, outcome.events(), outcome.again()));
        });
    }

    /** Forgets long-ended restores once a minute, so that what this planner holds stays bounded. */
    private void ageOut() {
        long now = System.nanoTime();
        if (now - nextAgeOut >= 0) {
            nextAgeOut = now + Duration.ofMinutes(1).toNanos();
            int forgotten = owned.forgetEnded(Instant.now());
            if (forgotten > 0) {
                log.info("forgot {} restores that ended longer ago than planner.retain-ended", forgotten);
            }
        }
    }

    /** Drives the restores whose pause is over. */
    private void wakeDue() {
        long now = System.nanoTime();
        while (!wakes.isEmpty() && wakes.peek().at() - now <= 0) {
            Wake wake = wakes.poll();
            TrackedRestore restore = owned.get(wake.partition(), wake.restoreId());
            if (restore != null) {
                drive(restore);
            }
        }
    }

    private List<RestoreEvent> failure(String restoreId, RestoreSteps.Step step, RuntimeException e, long written) {
        String reason = e instanceof RestoreSteps.StepException
                ? e.getMessage()
                : "The restore stopped at step " + step + ": " + e.getMessage()
                        + ". Check that S3 and DynamoDB are reachable, then submit the restore again with a new restoreId.";
        try {
            var failed = RestoreFailed.of(restoreId, reason, written);
            publisher.status(failed);
            return List.of(failed);
        } catch (RuntimeException kafkaDown) {
            // the step will be taken again when this restore is driven next (after a restart at the latest)
            return List.of();
        }
    }

    private void drainSteps() {
        StepDone d;
        while ((d = done.poll()) != null) {
            stepsRunning--;
            TrackedRestore restore = owned.get(d.partition(), d.restoreId());
            if (restore == null) {
                continue; // partition given up meanwhile; its new owner replays the events
            }
            restore.stepInFlight = false;
            d.events().forEach(restore::applyLocal);
            if (d.again() != null && RestoreSteps.next(restore.view) != null) {
                // the same step is due again after the pause; do not spin on it
                wakes.add(new Wake(System.nanoTime() + d.again().toNanos(), d.partition(), d.restoreId()));
                continue;
            }
            for (RestoreEvent e : d.events()) {
                if (e.terminal()) {
                    meters.ended(restore, e);
                }
                if (e instanceof RestoreCompleted c) {
                    log.info(
                            "restore {} completed: {} items in {} segments, {} ms",
                            c.restoreId(),
                            c.itemsWritten(),
                            c.segments(),
                            c.durationMs());
                } else if (e instanceof RestoreFailed f) {
                    log.warn("restore {} failed after {} items: {}", f.restoreId(), f.itemsWritten(), f.reason());
                }
            }
            drive(restore);
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            for (TopicPartition tp : revoked) {
                if (tp.topic().equals(Topic.STATUS.topicName())) {
                    owned.release(tp.partition());
                }
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            var status = new ArrayList<TopicPartition>();
            for (TopicPartition tp : assigned) {
                if (tp.topic().equals(Topic.STATUS.topicName())) {
                    status.add(tp);
                }
            }
            if (status.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> ends = replay.replay(status);
            ends.forEach(consumer::seek);
            for (TopicPartition tp : status) {
                for (TrackedRestore restore : new ArrayList<>(owned.in(tp.partition()))) {
                    drive(restore);
                }
            }
            log.info(
                    "owning status partitions {} with {} restores",
                    status.stream().map(TopicPartition::partition).toList(),
                    owned.size());
        }
    }

    private record StepDone(int partition, String restoreId, List<RestoreEvent> events, Duration again) {}

    private record Wake(long at, int partition, String restoreId) implements Comparable<Wake> {
        @Override
        public int compareTo(Wake o) {
            return Long.compare(at, o.at);
        }
    }
}
