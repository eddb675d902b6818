package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.commands.CancelRequested;
import io.dynarestore.contracts.commands.RestoreCommand;
import io.dynarestore.contracts.commands.RollbackRequested;
import io.dynarestore.contracts.status.CancellationStarted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestoreProgressed;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RollbackStarted;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.Partitions;
import io.dynarestore.core.request.CommandReader;
import io.dynarestore.core.restore.RollbackPolicy;
import io.dynarestore.core.retry.Backoff;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
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
 */
public final class PlannerLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PlannerLoop.class);
    /** Between polls while a record could not be handled (Kafka, S3 or DynamoDB unavailable); never gives up. */
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
    private int partitions;

    private final Duration progressInterval;
    private final MeterRegistry meters;
    private final AtomicInteger running = new AtomicInteger();
    private long nextProgress;

    private long nextAgeOut;

    PlannerLoop(Map<String, Object> consumerConfig, RequestIntake intake, RestoreSteps steps,
                EventPublisher publisher, ExecutorService workers, Duration progressInterval,
                MeterRegistry meters, ConsumerHealth health, Duration retainEnded) {
        this.owned = new OwnedRestores(retainEnded);
        this.progressInterval = progressInterval;
        this.meters = meters;
        // counted by the loop thread (the only one that may read the views), read by the scrape
        Gauge.builder("dynarestore.planner.running", running, AtomicInteger::get)
                .description("restores of this planner's partitions that are running").register(meters);
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
        c.subscribe(List.of(Topic.REQUESTS.topicName(), Topic.COMMANDS.topicName(), Topic.STATUS.topicName()),
                new Rebalance());
        int stalls = 0;
        while (thread.running()) {
            var records = c.poll(Duration.ofMillis(200));
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
                    log.warn("could not handle {}-{}@{}, will retry: {}", record.topic(), record.partition(),
                            record.offset(), e.toString());
                    stalled.add(tp);
                    c.seek(tp, record.offset());
                }
            }
            drainSteps();
            wakeDue();
            progress();
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

    /** requests, commands and status must be co-partitioned; refuse to start otherwise. */
    private static int checkPartitionCounts(KafkaConsumer<String, byte[]> c) {
        int requests = c.partitionsFor(Topic.REQUESTS.topicName(), Duration.ofSeconds(30)).size();
        int status = c.partitionsFor(Topic.STATUS.topicName(), Duration.ofSeconds(30)).size();
        int commands = c.partitionsFor(Topic.COMMANDS.topicName(), Duration.ofSeconds(30)).size();
        if (commands != status) {
            throw new IllegalStateException(Topic.COMMANDS.topicName() + " has " + commands + " partitions and "
                    + Topic.STATUS.topicName() + " has " + status + "; they must be equal, so that a restore's commands "
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
            onCommand(record);
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
            log.warn("skipping a status message that is not a known event at {}-{}@{}", record.topic(),
                    record.partition(), record.offset());
            return;
        }
        TrackedRestore restore = owned.forEvent(record.partition(), event);
        restore.applyFromLog(event);
        drive(restore);
    }

    /**
     * A cancel of a restore this planner owns and that has not ended becomes {@code CancellationStarted};
     * any other (unknown or ended restore, second cancel) changes nothing. A message that is not a
     * command goes to the DLT.
     */
    private void onCommand(ConsumerRecord<String, byte[]> record) {
        var read = CommandReader.read(record.value());
        if (!(read instanceof CommandReader.Valid valid)) {
            log.warn("{}-{}@{}: not a valid command; sent to the DLT", record.topic(), record.partition(),
                    record.offset());
            DeadLetters.send(publisher, record, "INVALID_COMMAND", "not a valid RestoreCommand: "
                    + ((CommandReader.Invalid) read).reason(), null);
            return;
        }
        RestoreCommand command = valid.command();
        if (command instanceof CancelRequested cancel) {
            TrackedRestore restore = cancel.restoreId() == null ? null : owned.get(record.partition(), cancel.restoreId());
            if (restore == null || restore.view.state() == null || restore.view.state().terminal()
                    || restore.view.cancellation() != null) {
                log.info("cancel of restore {} changes nothing (unknown here, ended, or cancelled already)",
                        cancel.restoreId());
                return;
            }
            var started = CancellationStarted.of(cancel.restoreId(), cancel.requestedBy(), cancel.reason());
            publisher.status(started);
            restore.applyLocal(started);
            log.info("restore {} is being cancelled", cancel.restoreId());
            drive(restore);
        } else if (command instanceof RollbackRequested rollback) {
            onRollback(record, rollback);
        }
    }

    /**
     * A rollback of an ended restore into an existing table or in place, by a publisher that
     * holds the roles the restore needed, becomes {@code RollbackStarted}; any other changes
     * nothing (a refused one goes to the DLT, so that its publisher can learn why).
     */
    private void onRollback(ConsumerRecord<String, byte[]> record, RollbackRequested rollback) {
        TrackedRestore restore = rollback.restoreId() == null ? null
                : owned.get(record.partition(), rollback.restoreId());
        String why = restore == null ? null : RollbackPolicy.refusal(restore.view);
        if (restore == null || why != null) {
            log.info("rollback of restore {} changes nothing: {}", rollback.restoreId(),
                    why == null ? "unknown here" : why);
            return;
        }
        String forbidden = intake.refusal(record, restore.view.request());
        if (forbidden != null) {
            log.warn("rollback of restore {} refused: {}", rollback.restoreId(), forbidden);
            DeadLetters.send(publisher, record, "FORBIDDEN", "Rolling back: " + forbidden, null);
            return;
        }
        var started = RollbackStarted.of(rollback.restoreId(), rollback.requestedBy(), rollback.reason());
        publisher.status(started);
        restore.applyLocal(started);
        log.info("restore {} is being rolled back", rollback.restoreId());
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

    /**
     * Publishes RestoreProgressed for each running restore whose items moved since the last one:
     * the restore as a whole, for dashboards that read only the status topic.
     */
    private void progress() {
        long now = System.nanoTime();
        if (now - nextProgress < 0) {
            return;
        }
        nextProgress = now + progressInterval.toNanos();
        int runningNow = 0;
        for (TrackedRestore r : owned.all()) {
            var view = r.view;
            if (view.state() == RestoreState.RUNNING) {
                runningNow++;
            }
            if (view.state() != RestoreState.RUNNING || view.plan() == null
                    || view.cancellation() != null) {
                continue;
            }
            long items = view.itemsWritten();
            if (items == r.progressItems) {
                continue;
            }
            long wcu = view.wcuConsumed();
            double seconds = r.progressAt == 0 ? progressInterval.toMillis() / 1000.0 : (now - r.progressAt) / 1e9;
            var event = RestoreProgressed.of(r.restoreId, items, view.bytesWritten(),
                    view.plan().estimatedItems(), view.completedSegments().size(), view.plan().segments(), wcu,
                    Math.max(0, (items - r.progressItems) / seconds), Math.max(0, (wcu - r.progressWcu) / seconds),
                    view.throttles());
            try {
                publisher.status(event);
            } catch (RuntimeException e) {
                log.debug("progress of {} not published: {}", r.restoreId, e.toString());
                return; // Kafka is away; the next round tries again
            }
            r.applyLocal(event);
            r.progressItems = items;
            r.progressWcu = wcu;
            r.progressAt = now;
        }
        running.set(runningNow);
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

    /** Counts a restore this planner ended, and how long it took from its first event. */
    private void ended(TrackedRestore restore, RestoreEvent end) {
        String outcome = String.valueOf(restore.view.state());
        meters.counter("dynarestore.planner.restores", "outcome", outcome).increment();
        var strategy = restore.view.plan() == null ? "NONE" : restore.view.plan().strategy().name();
        if (restore.view.createdAt() != null && end.occurredAt() != null) {
            Timer.builder("dynarestore.planner.restore.duration")
                    .description("time from a restore's acceptance to its end").tag("outcome", outcome)
                    .tag("strategy", strategy).register(meters)
                    .record(Duration.between(restore.view.createdAt(), end.occurredAt()));
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
        String reason = e instanceof RestoreSteps.StepException ? e.getMessage()
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
                    ended(restore, e);
                }
                if (e instanceof RestoreCompleted c) {
                    log.info("restore {} completed: {} items in {} segments, {} ms", c.restoreId(), c.itemsWritten(),
                            c.segments(), c.durationMs());
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
            Map<TopicPartition, Long> ends = replay(status);
            ends.forEach(consumer::seek);
            for (TopicPartition tp : status) {
                for (TrackedRestore restore : new ArrayList<>(owned.in(tp.partition()))) {
                    drive(restore);
                }
            }
            log.info("owning status partitions {} with {} restores", status.stream().map(TopicPartition::partition)
                    .toList(), owned.size());
        }
    }

    /** Folds the given status partitions from their start to their current end. */
    private Map<TopicPartition, Long> replay(List<TopicPartition> status) {
        var config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "restore-planner-replay-" + ProcessHandle.current().pid());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (var replayer = new KafkaConsumer<String, byte[]>(config)) {
            replayer.assign(status);
            replayer.seekToBeginning(status);
            Map<TopicPartition, Long> ends = replayer.endOffsets(status);
            for (TopicPartition tp : status) {
                owned.own(tp.partition());
            }
            while (status.stream().anyMatch(tp -> replayer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<String, byte[]> record : replayer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    RestoreEvent event = Messages.statusEvent(record.value());
                    if (event != null && event.restoreId() != null) {
                        owned.forEvent(record.partition(), event).applyFromLog(event);
                    }
                }
            }
            return ends;
        }
    }

    private record StepDone(int partition, String restoreId, List<RestoreEvent> events, Duration again) {
    }

    private record Wake(long at, int partition, String restoreId) implements Comparable<Wake> {
        @Override
        public int compareTo(Wake o) {
            return Long.compare(at, o.at);
        }
    }
}
