package io.dynarestore.protector.tables;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionPolicyEvent;
import io.dynarestore.contracts.protection.ProtectionRejectionCode;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.protector.ProtectorProperties;
import io.dynarestore.protector.backups.BackupSchedule;
import io.dynarestore.protector.backups.NativeExportBackups;
import io.dynarestore.protector.backups.ScanBackups;
import io.dynarestore.protector.backups.SharedSegments;
import io.dynarestore.protector.changelog.NativeIncrementalExports;
import io.dynarestore.protector.changelog.StreamCapture;
import io.dynarestore.protector.drills.DrillRunner;
import io.dynarestore.protector.exports.TableExports;
import io.dynarestore.protector.rejections.Rejections;
import io.dynarestore.protector.retention.Expiry;
import io.dynarestore.protector.retention.RestoreHolds;
import io.dynarestore.protector.retention.RestoresInProgress;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protector's one consumer and the tables it protects. Replicas share the compacted
 * {@code restore.protection} topic in one consumer group: a replica protects exactly the tables
 * keyed to the partitions it is assigned, reading those partitions from their start (the latest
 * record of a key is its policy, a tombstone ends it). A partition taken away stops its tables'
 * guards before the group hands it on (the cooperative protocol revokes it in one rebalance and
 * assigns it in the next; a partition that stays is not touched, so its backups and captures go
 * on), so that one table has one protector;
 * the next owner resumes each capture from the vault's checkpoint. A policy that breaks the rule
 * of {@link ProtectionSet#problems()}, or cannot be read, is never applied: it goes to the dead-letter
 * topic with a rejection event.
 */
public final class Protector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Protector.class);

    private final ConsumerThread thread;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService backupPool;
    private final ExecutorService flushPool;
    private final ExecutorService exportPool;
    private final ExecutorService expiryPool;
    private final TableServices services;
    private final RestoresInProgress restores;
    private final Duration pollInterval;
    private final Map<String, TableGuard> guards = new ConcurrentHashMap<>();
    /** The shard groups (other than 0) this replica captures, by table and group. */
    private final Map<String, GroupCapture> groups = new ConcurrentHashMap<>();
    /** The policy partitions assigned here; changed only under {@link #groupsLock}. */
    private final Set<Integer> owned = ConcurrentHashMap.newKeySet();

    private final Object groupsLock = new Object();
    private final PolicyView view;
    private volatile int policyPartitions;
    private final Clock clock;
    private final Rejections rejections;
    /** How often a backup whose segments are shared looks at their checkpoints. */
    private static final Duration SHARED_POLL = Duration.ofSeconds(1);

    public Protector(
            AwsClients aws,
            VaultCatalog catalog,
            ProtectorProperties properties,
            EventPublisher publisher,
            MeterRegistry registry,
            Map<String, Object> consumerConfig,
            ConsumerHealth health,
            Clock clock) {
        this.clock = clock;
        this.rejections = new Rejections(publisher);
        this.pollInterval = properties.capture().pollInterval();
        this.scheduler =
                Executors.newScheduledThreadPool(properties.capture().threads(), DaemonThreads.named("protect"));
        this.backupPool =
                Executors.newFixedThreadPool(properties.backups().concurrent(), DaemonThreads.named("backup"));
        // captures write their flushes here while their stepping threads read on
        this.flushPool = Executors.newFixedThreadPool(properties.capture().threads(), DaemonThreads.named("flush"));
        // native change-log exports mostly wait for DynamoDB; they never hold up the backups' threads
        this.exportPool = Executors.newFixedThreadPool(properties.capture().threads(), DaemonThreads.named("export"));
        // retention of every owned table, one round at a time: cheap, and it may wait for the restores' fold
        this.expiryPool = Executors.newSingleThreadExecutor(DaemonThreads.named("expiry"));
        var exports = new TableExports(
                catalog,
                properties.exports().pollInterval(),
                properties.exports().timeout());
        var holds = new RestoreHolds(
                properties.retention().maxHolds(), properties.retention().holdAtMost());
        var tails = new TailFlushes(guards::get, groups::forEach, clock);
        var protectionEvents = new ProtectionEvents(publisher);
        var drills = new DrillRunner(
                catalog, aws, publisher, protectionEvents::publish, guards::containsKey, expiryPool, registry, clock);
        this.restores = new RestoresInProgress(consumerConfig, health, holds, tails::accepted, drills::onStatus);
        var metrics = new ProtectorMetrics(
                registry,
                guards::size,
                () -> captures().mapToInt(StreamCapture::shardsRead).sum(),
                this::secondsBehind);
        this.view = new PolicyView(consumerConfig, health, this::placeGroups);
        this.services = new TableServices(
                aws,
                catalog.layout(),
                new BackupSchedule(catalog),
                scanBackups(aws, catalog, properties.backups(), publisher),
                new NativeExportBackups(catalog, exports),
                new NativeIncrementalExports(catalog, exports),
                new Expiry(aws.s3(), catalog, properties.retention().grace()),
                restores,
                backupPool,
                flushPool,
                exportPool,
                expiryPool,
                protectionEvents,
                drills,
                metrics,
                properties.capture(),
                properties.retention(),
                properties.exports(),
                clock);
        this.thread = new ConsumerThread(
                "protector-policies", policyConsumer(consumerConfig, properties), health, this::loop);
    }

    /** The policies' consumer: the replicas of one group share the tables, moved cooperatively. */
    private static Map<String, Object> policyConsumer(
            Map<String, Object> consumerConfig, ProtectorProperties properties) {
        var config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, properties.group());
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }

    /** Paced Scan backups, their segments shared with every replica unless configured otherwise. */
    private static ScanBackups scanBackups(
            AwsClients aws, VaultCatalog catalog, ProtectorProperties.Backups backups, EventPublisher publisher) {
        var shared = backups.shared()
                ? new SharedSegments(publisher, aws.s3(), catalog.layout(), SHARED_POLL, backups.segmentStall())
                : null;
        return new ScanBackups(
                aws.s3(),
                catalog.layout(),
                backups.itemsPerFile(),
                backups.scanSegments(),
                backups.pageLimit(),
                shared);
    }

    public void start() {
        restores.start();
        view.start();
        thread.start();
    }

    /** Every capture running here: the owned tables' (group 0, or all shards) and the other groups'. */
    private Stream<StreamCapture> captures() {
        return Stream.concat(
                        guards.values().stream().map(TableGuard::capture),
                        groups.values().stream().map(GroupCapture::capture))
                .filter(Objects::nonNull);
    }

    private double secondsBehind() {
        Instant now = clock.instant();
        return captures()
                .filter(c -> c.coveredUntil() != null)
                .mapToDouble(c ->
                        Math.max(0, Duration.between(c.coveredUntil(), now).toMillis() / 1000.0))
                .max()
                .orElse(0);
    }

    /**
     * Runs here exactly the shard groups placed on an owned partition, and stops the others (ADR 0025):
     * group {@code g} of a table keyed to partition {@code p} is placed on {@code (p + g) mod P}, so the
     * group that places tables places groups, and a partition is revoked (its groups stopped) before it
     * is assigned elsewhere.
     */
    private void placeGroups() {
        synchronized (groupsLock) {
            int partitions = policyPartitions;
            if (partitions == 0) {
                return; // not subscribed yet: placed once partitions are assigned
            }
            record Wanted(ProtectionSet policy, int index, int partition) {}
            var wanted = new HashMap<String, Wanted>();
            for (PolicyView.Placed placed : view.policies()) {
                ProtectionSet p = placed.policy();
                if (p.changeLogMethod() != ChangeLogMethod.STREAMS || p.shardGroups() < 2) {
                    continue;
                }
                for (int g = 1; g < p.shardGroups(); g++) {
                    int target = (placed.partition() + g) % partitions;
                    if (owned.contains(target)) {
                        wanted.put(p.subject() + "#" + g + "of" + p.shardGroups(), new Wanted(p, g, target));
                    }
                }
            }
            groups.entrySet().removeIf(e -> {
                if (!wanted.containsKey(e.getKey())) {
                    e.getValue().stop();
                    log.info("shard group {} no longer captured here", e.getKey());
                    return true;
                }
                return false;
            });
            for (var e : wanted.entrySet()) {
                GroupCapture running = groups.get(e.getKey());
                Wanted w = e.getValue();
                if (running != null) {
                    running.update(w.policy());
                    continue;
                }
                var capture = new GroupCapture(services, w.policy(), w.index(), w.partition(), clock);
                groups.put(e.getKey(), capture);
                capture.start(scheduler, pollInterval);
                log.info("capturing shard group {}", e.getKey());
            }
        }
    }

    private void loop(KafkaConsumer<String, byte[]> consumer) {
        policyPartitions = consumer.partitionsFor(Topic.PROTECTION.topicName(), Duration.ofSeconds(60))
                .size();
        consumer.subscribe(List.of(Topic.PROTECTION.topicName()), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                release(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                release(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                consumer.seekToBeginning(partitions);
                if (policyPartitions == 0) { // the topic had no partitions to list before the first assignment
                    policyPartitions =
                            consumer.partitionsFor(Topic.PROTECTION.topicName()).size();
                }
                synchronized (groupsLock) {
                    partitions.forEach(tp -> owned.add(tp.partition()));
                }
                placeGroups();
            }
        });
        while (thread.running()) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                apply(record);
            }
        }
        release(consumer.assignment());
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        String key = record.key();
        if (record.value() == null) {
            TableGuard gone = guards.remove(key);
            if (gone != null) {
                gone.stop();
                log.info("protection of {} ended", key);
            }
            return;
        }
        ProtectionSet policy;
        try {
            policy = (ProtectionSet) Json.mapper().readValue(record.value(), ProtectionPolicyEvent.class);
        } catch (RuntimeException e) {
            rejections.reject(
                    record,
                    ProtectionRejectionCode.INVALID_POLICY,
                    "not a readable ProtectionSet (" + e.getMessage()
                            + "); write policies with PUT /tables/{t}/protection or as its JSON Schema says");
            return;
        }
        var problems = policy.problems();
        if (!policy.subject().equals(key) || !problems.isEmpty()) {
            // the table keeps the policy it had, if any, until a valid one comes
            rejections.reject(
                    record,
                    ProtectionRejectionCode.INVALID_POLICY,
                    problems.isEmpty()
                            ? "its key " + key + " is not its table's (key a policy by account/region/table)"
                            : String.join(" ", problems));
            return;
        }
        TableGuard guard = guards.get(key);
        if (guard != null) {
            guard.update(policy);
            return;
        }
        guard = new TableGuard(services, policy, record.partition(), clock);
        guards.put(key, guard);
        guard.start(scheduler, pollInterval);
        log.info(
                "protecting {} ({} backups every {}, change log {})",
                key,
                policy.backups().method(),
                policy.backups().every(),
                policy.changeLogMethod());
    }

    private void release(Collection<TopicPartition> partitions) {
        synchronized (groupsLock) {
            for (TopicPartition tp : partitions) {
                owned.remove(tp.partition());
                groups.entrySet().removeIf(e -> {
                    if (e.getValue().partition() == tp.partition()) {
                        e.getValue().stop();
                        log.info("shard group {} handed on with partition {}", e.getKey(), tp.partition());
                        return true;
                    }
                    return false;
                });
            }
        }
        for (TopicPartition tp : partitions) {
            guards.entrySet().removeIf(e -> {
                if (e.getValue().partition() == tp.partition()) {
                    e.getValue().stop();
                    return true;
                }
                return false;
            });
        }
    }

    @Override
    public void close() {
        thread.stop(Duration.ofSeconds(10));
        view.close();
        restores.close();
        guards.values().forEach(TableGuard::stop);
        guards.clear();
        synchronized (groupsLock) {
            groups.values().forEach(GroupCapture::stop);
            groups.clear();
        }
        scheduler.shutdownNow();
        backupPool.shutdownNow();
        flushPool.shutdownNow();
        exportPool.shutdownNow();
        expiryPool.shutdownNow();
    }
}
