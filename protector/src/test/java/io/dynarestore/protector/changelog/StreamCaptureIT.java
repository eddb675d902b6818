package io.dynarestore.protector.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.backups.BackupTaker;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.StreamsEndpoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** One table's capture, stepped by the test, against the Streams endpoint and S3Proxy. */
class StreamCaptureIT {

    private static final String ACCOUNT = "000000000000";
    private static final String REGION = "us-east-1";
    private static Dynalite dynalite;
    private static StreamsEndpoint endpoint;
    private static S3Server s3;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;
    private static VaultLayout layout;
    private static VaultCatalog catalog;
    private static final java.util.concurrent.ExecutorService WRITERS =
            java.util.concurrent.Executors.newFixedThreadPool(2);

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint());
        s3 = S3Server.start("vault");
        dynamo = Dynalite.client(endpoint.endpoint());
        streams = DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .build();
        layout = new VaultLayout("vault", "");
        catalog = new VaultCatalog(s3.client(), layout);
    }

    @AfterAll
    static void stop() {
        WRITERS.shutdownNow();
        streams.close();
        endpoint.close();
        dynalite.close();
        s3.close();
    }

    private static void createTable(String table) {
        dynamo.createTable(b -> b.tableName(table)
                .billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        Dynalite.awaitActive(dynamo, table);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void put(String table, String id, int v) {
        dynamo.putItem(b -> b.tableName(table)
                .item(Map.of("id", AttributeValue.fromS(id), "v", AttributeValue.fromN(String.valueOf(v)))));
    }

    private static final class Events implements StreamCapture.Listener {
        final List<ExportMetadata> flushed = new ArrayList<>();
        final List<String> gaps = new ArrayList<>();
        final List<Instant[]> gapRanges = new ArrayList<>();

        @Override
        public void flushed(ExportMetadata export, long records, Duration lag) {
            flushed.add(export);
        }

        @Override
        public void gapped(Instant from, Instant to, String reason) {
            gaps.add(reason);
            gapRanges.add(new Instant[] {from, to});
        }
    }

    private static StreamCapture capture(String table, Events events) {
        return newCapture(
                table, new StreamCapture.Settings(Duration.ofMillis(300), Duration.ofMillis(200), 10_000, 100), events);
    }

    private static StreamCapture newCapture(String table, StreamCapture.Settings settings, Events events) {
        return new StreamCapture(
                streams,
                dynamo,
                s3.client(),
                layout,
                ACCOUNT,
                REGION,
                table,
                null,
                settings,
                Clock.systemUTC(),
                WRITERS,
                events);
    }

    /** A capture of {@code table} started at the stream's head, once its first second has begun. */
    private static StreamCapture started(String table, StreamCapture.Settings settings, Events events) {
        var capture = newCapture(table, settings, events);
        capture.start();
        Instant start = capture.coveredUntil();
        Awaitility.await().until(() -> Instant.now().isAfter(start));
        return capture;
    }

    private static PitrCoverage coverage(String table) {
        return PitrCoverage.of(
                catalog.listBackups(ACCOUNT, REGION, table),
                catalog.listExports(ACCOUNT, REGION, table),
                Instant.now());
    }

    private static void stepUntil(StreamCapture capture, java.util.function.BooleanSupplier done) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    capture.step();
                    return done.getAsBoolean();
                });
    }

    @Test
    void aCaptureTakenOverResumesAfterItsCheckpointWithNoWriteLostOrRecordedTwice() {
        // Given a capture that flushed some writes, and then died holding more unflushed
        String table = "resumed";
        createTable(table);
        var events = new Events();
        var first = capture(table, events);
        first.start();
        Instant start = first.coveredUntil();
        Awaitility.await().until(() -> Instant.now().isAfter(start));
        for (int i = 0; i < 20; i++) {
            put(table, "k" + i, 1);
        }
        stepUntil(
                first,
                () -> events.flushed.stream()
                                .mapToLong(ExportMetadata::itemCount)
                                .sum()
                        == 20);
        for (int i = 0; i < 10; i++) {
            put(table, "k" + i, 2);
        }
        first.step(); // reads them, flushes nothing yet: they are lost with it
        first.stop();

        // When another capture takes the table over
        var second = capture(table, events);
        second.start();
        for (int i = 10; i < 15; i++) {
            put(table, "k" + i, 3);
        }

        // Then it continues the chain where the vault's checkpoint ends, and every write is in the vault once
        assertThat(second.coveredUntil())
                .isEqualTo(events.flushed.get(events.flushed.size() - 1).to());
        stepUntil(
                second,
                () -> events.flushed.stream()
                                .mapToLong(ExportMetadata::itemCount)
                                .sum()
                        == 35);
        var exports = catalog.listExports(ACCOUNT, REGION, table);
        for (int i = 1; i < exports.size(); i++) {
            assertThat(exports.get(i).from()).isEqualTo(exports.get(i - 1).to());
        }
        assertThat(exports.stream().mapToLong(ExportMetadata::itemCount).sum()).isEqualTo(35);
        assertThat(events.gaps).isEmpty();
    }

    @Test
    void aBacklogOfChainedShardsIsFlushedAsItIsReadWithinTheMemoryBound() {
        // Given a capture that stopped reading while 120 writes rolled its table's stream over six shards
        String table = "backlog";
        createTable(table);
        endpoint.recordsPerShard(20);
        try {
            var events = new Events();
            var settings = new StreamCapture.Settings(Duration.ofMillis(100), Duration.ZERO, 20, 10);
            var capture = started(table, settings, events);
            for (int i = 0; i < 120; i++) {
                put(table, "k" + (i % 50), i);
                sleep(50); // about 18 writes a second: no one second holds more than the bound
            }
            long last = Instant.now().getEpochSecond();
            Awaitility.await().until(() -> Instant.now().getEpochSecond() > last); // the last write's second is over

            // When it reads the backlog, parent shard before child
            int most = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (events.flushed.stream().mapToLong(ExportMetadata::itemCount).sum() < 120
                    && System.nanoTime() < deadline) {
                capture.step();
                most = Math.max(most, capture.buffered());
            }
            capture.stop();

            // Then it flushed while children still waited for their parents, holding no more than its bound allows
            // (what it holds and what is being written: each at most the bound and one shard's page), and every
            // write is in the vault once, in exports that chain
            assertThat(most).isLessThanOrEqualTo(2 * (20 + 20));
            assertThat(events.flushed.stream()
                            .mapToLong(ExportMetadata::itemCount)
                            .sum())
                    .isEqualTo(120);
            var exports = catalog.listExports(ACCOUNT, REGION, table);
            assertThat(exports.stream().mapToLong(ExportMetadata::itemCount).sum())
                    .isEqualTo(120);
            for (int i = 1; i < exports.size(); i++) {
                assertThat(exports.get(i).from()).isEqualTo(exports.get(i - 1).to());
            }
            assertThat(events.gaps).isEmpty();
        } finally {
            endpoint.recordsPerShard(10_000);
        }
    }

    @Test
    void aCaptureWorkingOffABacklogFlushesWhatItHoldsOnceCaughtUpAndThenWaitsForTheIntervalAgain() {
        // Given a capture that flushes every hour or every 1,000 writes, and 2,500 writes it has not read yet
        String table = "catch-up";
        createTable(table);
        var events = new Events();
        var settings = new StreamCapture.Settings(Duration.ofHours(1), Duration.ZERO, 1_000, 500);
        var capture = started(table, settings, events);
        var batch = new ArrayList<software.amazon.awssdk.services.dynamodb.model.WriteRequest>();
        for (int i = 0; i < 2_500; i++) {
            String id = "k" + i;
            batch.add(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                    .putRequest(r -> r.item(Map.of("id", AttributeValue.fromS(id))))
                    .build());
            if (batch.size() == 25) {
                var requests = List.copyOf(batch);
                dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, requests)));
                batch.clear();
            }
        }
        long last = Instant.now().getEpochSecond();
        Awaitility.await().until(() -> Instant.now().getEpochSecond() > last);

        // When it reads them: full buffers force flushes, and the rest is left when it reaches the head
        stepUntil(
                capture,
                () -> events.flushed.stream()
                                .mapToLong(ExportMetadata::itemCount)
                                .sum()
                        >= 2_500);

        // Then all of it is in the vault long before the hour is out, the last part flushed on catching up
        assertThat(events.flushed.stream().mapToLong(ExportMetadata::itemCount).sum())
                .isEqualTo(2_500);
        assertThat(events.flushed.size()).isGreaterThanOrEqualTo(2);

        // And a write made once it has caught up waits for the interval, as a capture at the head does
        long settled = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < settled) { // a few steps at the head: the backlog is over
            capture.step();
            sleep(50);
        }
        put(table, "later", 1);
        int flushes = events.flushed.size();
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < until) {
            capture.step();
            sleep(50);
        }
        assertThat(events.flushed).hasSize(flushes);
        assertThat(capture.buffered()).isEqualTo(1);
        capture.stop();
    }

    @Test
    void flushesAtOnceThroughTheMomentARestoreAsksForAndThenWaitsForItsIntervalAgain() {
        // Given a capture that flushes every hour, holding writes made a moment ago
        String table = "tail";
        createTable(table);
        var events = new Events();
        var capture =
                started(table, new StreamCapture.Settings(Duration.ofHours(1), Duration.ZERO, 1_000, 500), events);
        for (int i = 0; i < 30; i++) {
            put(table, "k" + i, 1);
        }
        Instant asked = Instant.now();

        // When a restore accepted now asks for the log's tail
        capture.flushThrough(asked);
        stepUntil(
                capture,
                () -> !events.flushed.isEmpty()
                        && !events.flushed.get(events.flushed.size() - 1).to().isBefore(asked));

        // Then every write made before it is in the vault, the log reaching that moment within seconds
        assertThat(events.flushed.stream().mapToLong(ExportMetadata::itemCount).sum())
                .isEqualTo(30);
        assertThat(events.flushed.get(events.flushed.size() - 1).to()).isAfterOrEqualTo(asked);

        // and a write made after that waits for the interval again
        put(table, "later", 1);
        int flushes = events.flushed.size();
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < until) {
            capture.step();
            sleep(50);
        }
        assertThat(events.flushed).hasSize(flushes);
        capture.stop();
    }

    @Test
    void threeShardGroupsEachCaptureTheirOwnShardsIntoTheirOwnChainsAndTogetherRecordEveryWriteOnce() throws Exception {
        // Given a table whose stream has 4 partitions, each a lineage of shards of 25 records, and a capture
        // of each of its 3 shard groups
        String table = "grouped";
        endpoint.partitions(4).recordsPerShard(25);
        try {
            createTable(table);
        } finally {
            endpoint.partitions(1).recordsPerShard(10_000);
        }
        var events = new Events();
        var settings = new StreamCapture.Settings(Duration.ofMillis(300), Duration.ofMillis(200), 10_000, 100);
        var captures = new ArrayList<StreamCapture>();
        for (int g = 0; g < 3; g++) {
            captures.add(new StreamCapture(
                    streams,
                    dynamo,
                    s3.client(),
                    layout,
                    ACCOUNT,
                    REGION,
                    table,
                    new ExportMetadata.ShardGroup(g, 3),
                    settings,
                    Clock.systemUTC(),
                    WRITERS,
                    events));
        }
        captures.forEach(StreamCapture::start);
        Instant start = captures.stream()
                .map(StreamCapture::coveredUntil)
                .max(Instant::compareTo)
                .orElseThrow();
        Awaitility.await().until(() -> Instant.now().isAfter(start));

        // When 60 keys are written 4 times while all three step and flush, once more, group 1's capture dies
        // holding writes it had not flushed, another takes group 1 over, and each key is written once more
        for (int version = 0; version < 4; version++) {
            for (int k = 0; k < 60; k++) {
                put(table, "k" + k, version);
            }
            captures.forEach(StreamCapture::step);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    captures.forEach(StreamCapture::step);
                    return events.flushed.stream()
                                    .mapToLong(ExportMetadata::itemCount)
                                    .sum()
                            >= 240;
                });
        for (int k = 0; k < 60; k++) {
            put(table, "k" + k, 4);
        }
        captures.forEach(StreamCapture::step);
        captures.get(1).stop();
        captures.set(
                1,
                new StreamCapture(
                        streams,
                        dynamo,
                        s3.client(),
                        layout,
                        ACCOUNT,
                        REGION,
                        table,
                        new ExportMetadata.ShardGroup(1, 3),
                        settings,
                        Clock.systemUTC(),
                        WRITERS,
                        events));
        captures.get(1).start();
        for (int k = 0; k < 60; k++) {
            put(table, "k" + k, 5);
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    captures.forEach(StreamCapture::step);
                    return catalog.listExports(ACCOUNT, REGION, table).stream()
                                    .mapToLong(ExportMetadata::itemCount)
                                    .sum()
                            >= 360;
                });
        Thread.sleep(500);
        captures.forEach(StreamCapture::step);
        captures.forEach(StreamCapture::stop);

        // Then every export is one group's, each group's exports chain without a gap, and more than one
        // group holds writes
        var exports = catalog.listExports(ACCOUNT, REGION, table);
        assertThat(exports).allSatisfy(e -> assertThat(e.shardGroup()).isNotNull());
        var byGroup = new java.util.TreeMap<Integer, List<ExportMetadata>>();
        exports.forEach(e -> byGroup.computeIfAbsent(e.shardGroup().index(), g -> new ArrayList<>())
                .add(e));
        for (var chain : byGroup.values()) {
            for (int i = 1; i < chain.size(); i++) {
                assertThat(chain.get(i).from()).isEqualTo(chain.get(i - 1).to());
            }
        }
        // (the groups holding writes are those of the partitions' root shards, whose ids the stream draws at
        // random: all four land in one group in 3 runs of 81, so the test says which it expects)
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        var shards = streams.describeStream(b -> b.streamArn(arn))
                .streamDescription()
                .shards();
        var ids = shards.stream()
                .map(software.amazon.awssdk.services.dynamodb.model.Shard::shardId)
                .collect(java.util.stream.Collectors.toSet());
        var rootGroups = shards.stream()
                .filter(sh -> sh.parentShardId() == null || !ids.contains(sh.parentShardId()))
                .map(sh -> Math.floorMod(sh.shardId().hashCode(), 3))
                .collect(java.util.stream.Collectors.toSet());
        var holding = new java.util.TreeSet<Integer>();
        byGroup.forEach((g, chain) -> {
            if (chain.stream().mapToLong(ExportMetadata::itemCount).sum() > 0) {
                holding.add(g);
            }
        });
        assertThat(holding).as("groups holding writes").isEqualTo(new java.util.TreeSet<>(rootGroups));
        assertThat(events.gaps).isEmpty();

        // and every write is in the vault once, each key in one group only, its six versions in the order written
        var versions = new java.util.TreeMap<String, List<Integer>>();
        var groupsOfKey = new java.util.TreeMap<String, java.util.Set<Integer>>();
        var lines = new ArrayList<Map.Entry<Integer, io.dynarestore.core.vault.ExportLine>>();
        for (ExportMetadata e : exports) {
            for (var f : catalog.exportFiles(e)) {
                try (var reader = new io.dynarestore.core.vault.DataFileReader(
                        f.dataFileS3Key(),
                        s3.client()
                                .getObject(
                                        b -> b.bucket(catalog.exportBucket(e)).key(f.dataFileS3Key())),
                        f.md5Checksum())) {
                    for (io.dynarestore.core.vault.ExportLine line; (line = reader.next()) != null; ) {
                        lines.add(Map.entry(e.shardGroup().index(), line));
                    }
                }
            }
        }
        lines.sort(java.util.Comparator.comparingLong(l -> l.getValue().writeTimestampMicros()));
        for (var l : lines) {
            String id = l.getValue().keys().get("id").s();
            versions.computeIfAbsent(id, k -> new ArrayList<>())
                    .add(Integer.parseInt(l.getValue().newImage().get("v").n()));
            groupsOfKey.computeIfAbsent(id, k -> new java.util.TreeSet<>()).add(l.getKey());
        }
        assertThat(versions).hasSize(60);
        assertThat(versions.values()).allSatisfy(v -> assertThat(v).containsExactly(0, 1, 2, 3, 4, 5));
        assertThat(groupsOfKey.values()).allSatisfy(g -> assertThat(g).hasSize(1));
        // and the table is restorable up to where the slowest group flushed
        Instant slowest = byGroup.values().stream()
                .map(c -> c.get(c.size() - 1).to())
                .min(Instant::compareTo)
                .orElseThrow();
        assertThat(PitrCoverage.of(
                                List.of(new VaultCatalog.BackupSummary(
                                        "base", start, null, ACCOUNT, REGION, table, 0, 0, null)),
                                exports,
                                Instant.now())
                        .availability()
                        .latestRestorable())
                .isEqualTo(slowest.minusSeconds(1));
    }

    @Test
    void fullPagesReadAheadWhileTheirRecordsAreHandedOnLoseNoWriteAndRecordNoneTwice() {
        // Given a capture, and 3,500 writes (500 keys, 7 versions each) made at once: pages of 1,000 come back full
        String table = "read-ahead";
        createTable(table);
        var events = new Events();
        var settings = new StreamCapture.Settings(Duration.ofMillis(300), Duration.ofMillis(200), 10_000, 1_000);
        var capture = started(table, settings, events);
        for (int version = 0; version < 7; version++) {
            var batch = new ArrayList<software.amazon.awssdk.services.dynamodb.model.WriteRequest>();
            for (int k = 0; k < 500; k++) {
                int v = version;
                String id = "k" + k;
                batch.add(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                        .putRequest(r -> r.item(
                                Map.of("id", AttributeValue.fromS(id), "v", AttributeValue.fromN(String.valueOf(v)))))
                        .build());
                if (batch.size() == 25) {
                    var requests = List.copyOf(batch);
                    dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, requests)));
                    batch.clear();
                }
            }
        }

        // When it reads them (the next page asked for while each full one is handed on) and flushes
        stepUntil(
                capture,
                () -> events.flushed.stream()
                                .mapToLong(ExportMetadata::itemCount)
                                .sum()
                        >= 3_500);
        capture.stop();

        // Then every write is in the vault once (each key's seven versions, in the order written), in exports that
        // chain
        var exports = catalog.listExports(ACCOUNT, REGION, table);
        assertThat(exports.stream().mapToLong(ExportMetadata::itemCount).sum()).isEqualTo(3_500);
        for (int i = 1; i < exports.size(); i++) {
            assertThat(exports.get(i).from()).isEqualTo(exports.get(i - 1).to());
        }
        assertThat(events.gaps).isEmpty();
        var lines = new ArrayList<io.dynarestore.core.vault.ExportLine>();
        for (ExportMetadata e : exports) {
            for (var f : catalog.exportFiles(e)) {
                assertEachKeySliceReadsBackAlone(catalog.exportBucket(e), f);
                try (var reader = new io.dynarestore.core.vault.DataFileReader(
                        f.dataFileS3Key(),
                        s3.client()
                                .getObject(
                                        b -> b.bucket(catalog.exportBucket(e)).key(f.dataFileS3Key())),
                        f.md5Checksum())) {
                    for (io.dynarestore.core.vault.ExportLine line; (line = reader.next()) != null; ) {
                        lines.add(line);
                    }
                }
            }
        }
        // in the order a restore applies them: by their write time
        lines.sort(java.util.Comparator.comparingLong(io.dynarestore.core.vault.ExportLine::writeTimestampMicros));
        var versions = new java.util.TreeMap<String, List<Integer>>();
        for (var line : lines) {
            versions.computeIfAbsent(line.keys().get("id").s(), k -> new ArrayList<>())
                    .add(Integer.parseInt(line.newImage().get("v").n()));
        }
        assertThat(versions).hasSize(500);
        assertThat(versions.values()).allSatisfy(v -> assertThat(v).containsExactly(0, 1, 2, 3, 4, 5, 6));
    }

    @Test
    void aCaptureThatFellBehindTheStreamsRetentionReportsAGapAndTheSecondsInItAreNotRestorable() throws Exception {
        // Given a protected table: a backup, and a capture that flushed
        String table = "behind";
        createTable(table);
        var events = new Events();
        var first = capture(table, events);
        first.start();
        Instant start = first.coveredUntil();
        Awaitility.await().until(() -> Instant.now().isAfter(start.plusSeconds(1)));
        new BackupTaker(dynamo, s3.client(), layout)
                .take(
                        ACCOUNT,
                        REGION,
                        table,
                        BackupTaker.Settings.defaults()
                                .withTakenAt(Instant.ofEpochSecond(Instant.now().getEpochSecond())));
        put(table, "a", 1);
        stepUntil(
                first,
                () -> !events.flushed.isEmpty()
                        && events.flushed.get(events.flushed.size() - 1).itemCount() > 0);

        // When the capture stops, writes go on, and the stream trims them before a capture reads them
        first.stop();
        put(table, "b", 1);
        Thread.sleep(1_100);
        endpoint.retention(Duration.ofMillis(500));
        try {
            Thread.sleep(700);
            var second = capture(table, events);
            second.start();

            // Then the gap is reported, from where the vault's change log ends to where capture starts again
            assertThat(events.gaps).hasSize(1);
            assertThat(events.gaps.get(0)).contains("trimmed");
            Instant gapFrom = events.gapRanges.get(0)[0];
            Instant gapTo = events.gapRanges.get(0)[1];
            assertThat(gapTo).isAfter(gapFrom);

            // and no second inside the gap can be restored, whatever backups came before it
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> Instant.now().isAfter(gapTo.plusSeconds(1)));
            new BackupTaker(dynamo, s3.client(), layout)
                    .take(
                            ACCOUNT,
                            REGION,
                            table,
                            BackupTaker.Settings.defaults()
                                    .withTakenAt(
                                            Instant.ofEpochSecond(Instant.now().getEpochSecond())));
            put(table, "c", 1);
            stepUntil(second, () -> coverage(table).availability().windows().size() == 2);
            var coverage = coverage(table);
            var availability = coverage.availability();
            assertThat(availability.gaps()).hasSize(1);
            Instant inGap = Instant.ofEpochSecond(gapFrom.getEpochSecond());
            assertThat(coverage.resolve(inGap)).isEmpty();
            assertThat(coverage.resolve(inGap.minusSeconds(1))).isPresent();
            assertThat(coverage.nearest(inGap)).contains("nearest restorable seconds");
        } finally {
            endpoint.retention(Duration.ofHours(24));
        }
    }

    /**
     * The capture cuts its files in key slices by the stream's key schema (ADR 0045): each slice, read
     * alone by its byte range, holds its manifest's count of lines, each of a key of that slice.
     */
    private static void assertEachKeySliceReadsBackAlone(String bucket, io.dynarestore.core.vault.ManifestFile f) {
        int count = io.dynarestore.core.vault.IncrementalExportWriter.KEY_SLICES;
        assertThat(f.keySlices()).hasSize(count);
        var slicer = io.dynarestore.core.pitr.KeyRange.slicer(List.of("id"), count);
        long lines = 0;
        for (int s = 0; s < count; s++) {
            var span = f.span(s, s);
            if (span.items() == 0) {
                continue;
            }
            try (var reader = new io.dynarestore.core.vault.DataFileReader(
                    f.dataFileS3Key(),
                    s3.client()
                            .getObject(
                                    b -> b.bucket(bucket).key(f.dataFileS3Key()).range(span.httpRange())),
                    null)) {
                for (io.dynarestore.core.vault.ExportLine line; (line = reader.next()) != null; ) {
                    assertThat(slicer.sliceOf(line.keys())).isEqualTo(s);
                    lines++;
                }
            }
        }
        assertThat(lines).isEqualTo(f.itemCount());
    }
}
