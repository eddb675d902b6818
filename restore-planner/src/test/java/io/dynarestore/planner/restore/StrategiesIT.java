package io.dynarestore.planner.restore;

import static io.dynarestore.core.KeySchemas.attr;
import static io.dynarestore.core.KeySchemas.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestorePlanned.Strategy;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.destination.TableCreator;
import io.dynarestore.planner.fleet.SharedDeltas;
import io.dynarestore.planner.fleet.SharedSweeps;
import io.dynarestore.planner.staging.BacktrackStager;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.ImportStager;
import io.dynarestore.planner.staging.SweepStager;
import io.dynarestore.testkit.ApiShapes;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.SentRequests;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.util.unit.DataSize;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * The planner's choice of strategy and its estimates, and restores that DynamoDB itself performs
 * (ImportTable of a staged copy, RestoreTableFromBackup of a Snap), walked step by step on a real
 * broker, dynalite and S3Proxy. Dynalite implements neither native call, so a simulation does
 * their work on dynalite from the exact requests the planner sends, and those requests are
 * checked against AWS's model of the API.
 */
class StrategiesIT {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    /** A region whose endpoint lacks ImportTable and RestoreTableFromBackup (as dynalite does). */
    static final String PLAIN_REGION = "eu-west-1";

    static final int ITEMS = 400;

    static KafkaBroker kafka;
    static Dynalite dynalite;
    static S3Server s3;
    static AwsClients aws;
    static VaultCatalog catalog;
    static EventPublisher publisher;
    static SimulatedNativeTables natives;
    static RestoreSteps steps;
    static Planning planning;
    static final Map<Integer, Backup> backups = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        s3 = S3Server.start("vault");
        URI endpoint = dynalite.endpoint();
        aws = new AwsClients(new AwsSettings(
                ACCOUNT,
                REGION,
                new AwsSettings.Credentials(S3Server.ACCESS_KEY, S3Server.SECRET_KEY),
                new AwsSettings.S3(s3.endpoint(), REGION, true),
                null,
                null,
                List.of(new AwsSettings.Account(
                        ACCOUNT,
                        null,
                        null,
                        Map.of(
                                REGION, new AwsSettings.Region(endpoint, true, true, null, null),
                                PLAIN_REGION, new AwsSettings.Region(endpoint, false, false, null, null))))));
        catalog = new VaultCatalog(aws.s3(), new VaultLayout("vault", ""));
        publisher = new EventPublisher(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), "restore-planner");
        natives = new SimulatedNativeTables(aws);
        // the settings of the tests: fast polls, a write budget of 1,000 WCU/s, imports of 5 MB/s
        var strategy = new PlannerProperties.Strategy(
                true, 1_000, DataSize.ofMegabytes(5), Duration.ofMinutes(5), Duration.ofMillis(20), 150, 5_000_000);
        var pitr = new PlannerProperties.Pitr(
                DataSize.ofMegabytes(16),
                1_000_000,
                1_000,
                true,
                Duration.ofMinutes(15),
                Duration.ZERO,
                Duration.ZERO,
                Duration.ofMinutes(15));
        var stager = new DeltaStager(aws.s3(), catalog, 16L << 20, 1_000);
        var sweeper = new SweepStager(aws.s3(), catalog, 16L << 20, 1_000);
        var backtracks = new BacktrackStager(aws.s3(), catalog, 16L << 20, 1_000);
        var capacity = new CapacityManager(aws, true, 1_000, Duration.ofSeconds(30));
        var sources = new Sources(catalog, stager, aws);
        var tableActive = Duration.ofSeconds(30);
        // a fleet of one: every delta is built here, as by a planner alone in its group
        var deltas = new SharedDeltas(
                stager,
                aws.s3(),
                catalog.layout(),
                publisher,
                List::of,
                new PlannerProperties.Fleet(0, 16, Duration.ofMinutes(1), 0),
                Duration.ofMillis(50));
        var sweeps = new SharedSweeps(
                sweeper,
                aws::dynamo,
                aws.s3(),
                catalog.layout(),
                publisher,
                List::of,
                new PlannerProperties.Fleet(0, 16, Duration.ofMinutes(1), 0),
                Duration.ofMillis(50));
        // one exporter: exports stay whole
        var exportSplits = new ExportSplits(() -> List.of(0), new PlannerProperties.Exports(2_000_000, "exporter", 16));
        planning = new Planning(
                sources,
                catalog,
                deltas,
                sweeps,
                new BacktrackPlanning(
                        backtracks,
                        new ChangeLogTail(
                                Duration.ZERO,
                                Duration.ZERO,
                                Duration.ZERO,
                                Clock.systemUTC(),
                                Duration.ZERO,
                                Duration.ZERO),
                        sources,
                        capacity,
                        Clock.systemUTC(),
                        pitr,
                        strategy),
                capacity,
                aws,
                Clock.systemUTC(),
                pitr,
                strategy,
                exportSplits);
        steps = new RestoreSteps(
                planning,
                new Preparation(
                        sources,
                        new TableCreator(aws, tableActive),
                        capacity,
                        aws,
                        publisher,
                        tableActive,
                        new PlannerProperties.WarmThroughput(true, Duration.ofHours(1), 40_000)),
                new Dispatching(sources, catalog, sweeper, backtracks, aws, publisher, strategy, exportSplits),
                new Completion(stager, aws, Clock.systemUTC(), strategy),
                new NativeRestores(
                        sources,
                        new ImportStager(aws.s3(), catalog, strategy.stagingLinesPerFile()),
                        natives,
                        aws,
                        publisher,
                        tableActive,
                        strategy),
                new Cancellation(Clock.systemUTC(), publisher, Duration.ofSeconds(30)),
                new Rollbacks(catalog, aws, publisher, new PlannerProperties.Rollback(200)),
                new CapacityPutBack(
                        capacity, publisher, new PlannerProperties.Capacity(true, 1_000, Duration.ofSeconds(1))),
                publisher);
    }

    @AfterAll
    static void stop() {
        publisher.close();
        aws.close();
        s3.close();
        dynalite.close();
        kafka.close();
    }

    // ---- strategy and estimates ----

    @ParameterizedTest(name = "{0} LSIs")
    @ValueSource(ints = {0, 1, 5})
    void choosesTheStrategyAndCountsWriteUnitsOfEveryIndexThatProjectsAnItem(int lsis) {
        // Given a backup of a table with this many LSIs, whose sort keys only some items have
        Backup backup = backupWithLsis(lsis);

        // When a restore of it into a new table is planned
        RestorePlanned plan = planning.plan(
                request(
                        "plan-" + lsis,
                        Source.backup(ACCOUNT, REGION, "lsi" + lsis, "b"),
                        new Scope.Full(),
                        new Destination.NewTable(ACCOUNT, REGION, "lsi" + lsis + "-restored", null)),
                null);

        // Then a table without LSIs is imported, one with LSIs written item by item, and the plan says why
        assertThat(plan.strategy()).isEqualTo(lsis == 0 ? Strategy.IMPORT_FROM_S3 : Strategy.ITEM_WRITES);
        assertThat(plan.strategyReason()).isNotBlank();
        if (lsis > 0) {
            assertThat(plan.strategyReason()).contains(lsis + " local secondary index");
            assertThat(plan.estimatedImportGb()).isNull();
            assertThat(plan.estimatedDurationSeconds()).isEqualTo((plan.estimatedWcu() + 999) / 1_000);
        } else {
            assertThat(plan.strategyReason()).contains("ImportTable");
            assertThat(plan.estimatedImportGb()).isNotNull().isGreaterThan(0.0);
            assertThat(plan.estimatedDurationSeconds()).isGreaterThanOrEqualTo(300);
        }
        // and the WCU is ceil(size / 1 KB) per item plus the same for each LSI whose sort key the item has
        assertThat(plan.estimatedItems()).isEqualTo(ITEMS);
        assertThat(plan.estimatedWcu()).isEqualTo(expectedWriteUnits(lsis, lsis));
        assertThat(plan.estimatedBytes()).isEqualTo(backup.summary().billedSizeBytes());
    }

    @Test
    void estimatesMoreWriteUnitsForEachLocalIndexRestored() {
        // Given backups of tables with 0, 1 and 5 LSIs over the same items
        long[] wcu = new long[3];
        int[] counts = {0, 1, 5};
        for (int i = 0; i < counts.length; i++) {
            backupWithLsis(counts[i]);
            // When each is planned into a new table
            wcu[i] = planning.plan(
                            request(
                                    "grow-" + i,
                                    Source.backup(ACCOUNT, REGION, "lsi" + counts[i], "b"),
                                    new Scope.Full(),
                                    new Destination.NewTable(ACCOUNT, REGION, "grow-" + i, null)),
                            null)
                    .estimatedWcu();
        }
        // Then each LSI adds the units of the items it projects (about 90% of them here)
        assertThat(wcu[0]).isLessThan(wcu[1]);
        assertThat(wcu[1]).isLessThan(wcu[2]);
        assertThat((double) wcu[1] / wcu[0]).isBetween(1.8, 2.0);
        assertThat((double) wcu[2] / wcu[0]).isBetween(5.0, 6.0);
    }

    @Test
    void importsWhenTheRequestLeavesTheLocalIndexesOut() {
        // Given a backup with 5 LSIs
        backupWithLsis(5);

        // When it is planned into a new table without its LSIs
        var options = new Destination.TableOptions(true, false, null);
        RestorePlanned plan = planning.plan(
                request(
                        "no-lsi",
                        Source.backup(ACCOUNT, REGION, "lsi5", "b"),
                        new Scope.Full(),
                        new Destination.NewTable(ACCOUNT, REGION, "lsi5-without", options)),
                null);

        // Then ImportTable can make it, and no index units are counted
        assertThat(plan.strategy()).isEqualTo(Strategy.IMPORT_FROM_S3);
        assertThat(plan.estimatedWcu()).isEqualTo(expectedWriteUnits(5, 0));
    }

    @Test
    void writesItemsWhereTheDestinationsEndpointLacksImportTable() {
        // Given a backup without LSIs
        backupWithLsis(0);

        // When it is planned into a region whose endpoint has no ImportTable
        RestorePlanned plan = planning.plan(
                request(
                        "plain",
                        Source.backup(ACCOUNT, REGION, "lsi0", "b"),
                        new Scope.Full(),
                        new Destination.NewTable(ACCOUNT, PLAIN_REGION, "lsi0-plain", null)),
                null);

        // Then items are written, and the plan names the setting
        assertThat(plan.strategy()).isEqualTo(Strategy.ITEM_WRITES);
        assertThat(plan.strategyReason())
                .contains("does not implement ImportTable")
                .contains(PLAIN_REGION);
        assertThat(plan.estimatedWcu()).isEqualTo(expectedWriteUnits(0, 0));
    }

    @Test
    void writesItemsIntoAnExistingTable() {
        // Given a backup without LSIs and an existing table
        backupWithLsis(0);
        createTable(dynalite.client(), "existing-target", 0);

        // When it is planned into that table
        RestorePlanned plan = planning.plan(
                request(
                        "existing",
                        Source.backup(ACCOUNT, REGION, "lsi0", "b"),
                        new Scope.Full(),
                        new Destination.ExistingTable(ACCOUNT, REGION, "existing-target")),
                null);

        // Then items are written, since ImportTable only makes new tables
        assertThat(plan.strategy()).isEqualTo(Strategy.ITEM_WRITES);
        assertThat(plan.strategyReason()).contains("only creates new tables");
    }

    // ---- ImportTable ----

    @Test
    void restoresEveryItemThroughImportTableFromAStagedCopyAndRemovesTheCopy() throws Exception {
        // Given a backup of a table with a GSI and no LSI
        backupWithLsis(0);
        var options = new Destination.TableOptions(true, null, Map.of("team", "payments"));

        // When it is restored into a new table
        var events = runToEnd(request(
                "import-all",
                Source.backup(ACCOUNT, REGION, "lsi0", "b"),
                new Scope.Full(),
                new Destination.NewTable(ACCOUNT, REGION, "imported", options)));

        // Then it went by ImportTable, and completed with every item
        assertThat(types(events))
                .containsExactly(
                        "RestorePlanned",
                        "ImportStaged",
                        "ImportStarted",
                        "ImportCompleted",
                        "DestinationReady",
                        "RestoreCompleted");
        var completed = (RestoreCompleted) events.get(events.size() - 1);
        assertThat(completed.itemsWritten()).isEqualTo(ITEMS);
        assertThat(ItemDigests.ofTable(dynalite.client(), "imported", List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(items(0), List.of("pk", "sk")));

        // and the table has the backup's keys and GSI, the requested tag and the restore's tag
        TableDescription restored =
                dynalite.client().describeTable(b -> b.tableName("imported")).table();
        assertThat(restored.keySchema())
                .isEqualTo(backups.get(0).metadata().tableDescription().keySchema());
        assertThat(restored.globalSecondaryIndexes())
                .extracting(g -> g.indexName())
                .containsExactly("byG");
        var tags = dynalite.client()
                .listTagsOfResource(b -> b.resourceArn(restored.tableArn()))
                .tags();
        assertThat(tags).contains(Tag.builder().key("team").value("payments").build());
        assertThat(tags).extracting(Tag::key).contains("dynarestore:restore-id");

        // and the ImportTable request is one DynamoDB accepts: DYNAMODB_JSON, GZIP, the staged prefix
        var request = natives.importRequests.stream()
                .filter(r -> r.tableCreationParameters().tableName().equals("imported"))
                .findFirst()
                .orElseThrow();
        assertThat(request.inputFormatAsString()).isEqualTo("DYNAMODB_JSON");
        assertThat(request.inputCompressionTypeAsString()).isEqualTo("GZIP");
        assertThat(request.s3BucketSource().s3KeyPrefix()).isEqualTo("_staging/import-all/import/data/");
        assertThat(request.clientToken()).isNotBlank();
        assertThat(ApiShapes.dynamodb().violations("ImportTable", wire("ImportTable", request)))
                .isEmpty();

        // and nothing staged is left behind
        assertThat(aws.s3()
                        .listObjectsV2(b -> b.bucket("vault").prefix("_staging/import-all/"))
                        .contents())
                .isEmpty();
    }

    @Test
    void importsOnlyTheRecordsThatMatchTheFilter() {
        // Given a backup without LSIs and a filter on partition keys
        backupWithLsis(0);
        var filter = new Scope.Records(
                List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p1")), null)), List.of());

        // When the records are restored into a new table
        var events = runToEnd(request(
                "import-some",
                Source.backup(ACCOUNT, REGION, "lsi0", "b"),
                filter,
                new Destination.NewTable(ACCOUNT, REGION, "imported-some", null)));

        // Then the table holds exactly the matching items
        var key = KeySchema.of(backups.get(0).metadata().tableDescription());
        var compiled = RecordFilter.compile(filter, key);
        var expected = items(0).stream().filter(compiled::matches).toList();
        assertThat(expected).isNotEmpty().hasSizeLessThan(ITEMS);
        assertThat(types(events)).contains("ImportCompleted").last().isEqualTo("RestoreCompleted");
        assertThat(((RestoreCompleted) events.get(events.size() - 1)).itemsWritten())
                .isEqualTo(expected.size());
        assertThat(ItemDigests.ofTable(dynalite.client(), "imported-some", List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(expected, List.of("pk", "sk")));
    }

    @Test
    void failsTheRestoreWhenTheImportCouldNotImportEveryItem() {
        // Given a backup without LSIs, and an import that will report 3 items it could not import
        backupWithLsis(0);
        natives.nextImportErrors = 3;

        // When it is restored into a new table
        var events = runToEnd(request(
                "import-errors",
                Source.backup(ACCOUNT, REGION, "lsi0", "b"),
                new Scope.Full(),
                new Destination.NewTable(ACCOUNT, REGION, "imported-errors", null)));

        // Then the restore fails and says how many and where DynamoDB logged them
        var failed = (RestoreFailed) events.get(events.size() - 1);
        assertThat(failed.reason()).contains("3 of the " + ITEMS).contains("CloudWatch");
    }

    // ---- Snaps ----

    @Test
    void restoresASnapByRestoreTableFromBackupAndSetsWhatItLeavesOut() throws Exception {
        // Given a Snap of table "ledger" (its items stand in a dynalite table, as DynamoDB keeps them)
        DynamoDbClient dynamo = dynalite.client();
        createTable(dynamo, "ledger-snap-contents", 0);
        var snapItems = items(0).subList(0, 50);
        snapItems.forEach(
                item -> dynamo.putItem(b -> b.tableName("ledger-snap-contents").item(item)));
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/ledger/backup/01764000000000-0a1b2c3d";
        BackupDescription description = SdkJson.fromJson("""
                {"BackupDetails": {"BackupArn": "%s", "BackupName": "nightly", "BackupStatus": "AVAILABLE",
                   "BackupType": "USER", "BackupCreationDateTime": 1764000000},
                 "SourceTableDetails": {"TableName": "ledger", "TableId": "0a1b2c3d-0000-0000-0000-000000000000",
                   "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                   "TableCreationDateTime": 1700000000, "ItemCount": 50, "TableSizeBytes": 9000,
                   "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                   "BillingMode": "PROVISIONED"},
                 "SourceTableFeatureDetails": {}}
                """.formatted(arn), BackupDescription.builder());
        catalog.put(
                new VaultLayout("vault", "").snapsPrefix(ACCOUNT, REGION, "ledger") + "s-1.json",
                SnapMetadata.of(
                        "s-1",
                        Instant.now().minus(Duration.ofHours(2)),
                        Instant.now().plus(Duration.ofDays(7)),
                        description));
        natives.snap(arn, "ledger-snap-contents");

        // When it is restored into a new table with a tag
        var options = new Destination.TableOptions(null, null, Map.of("restored-by", "ops"));
        var events = runToEnd(request(
                "snap-1",
                new Source(ACCOUNT, REGION, "ledger", null, null, "s-1"),
                new Scope.Full(),
                new Destination.NewTable(ACCOUNT, REGION, "ledger-restored", options)));

        // Then DynamoDB restored it (SNAP: no write units), and the planner finished the table
        assertThat(types(events))
                .containsExactly("RestorePlanned", "SnapRestoreStarted", "DestinationReady", "RestoreCompleted");
        var plan = (RestorePlanned) events.get(0);
        assertThat(plan.strategy()).isEqualTo(Strategy.SNAP);
        assertThat(plan.estimatedWcu()).isZero();
        assertThat(plan.estimatedItems()).isEqualTo(50);
        assertThat(((DestinationReady) events.get(2)).created()).isTrue();
        assertThat(ItemDigests.ofTable(dynamo, "ledger-restored", List.of("pk", "sk")))
                .isEqualTo(ItemDigests.of(snapItems, List.of("pk", "sk")));
        String tableArn = dynamo.describeTable(b -> b.tableName("ledger-restored"))
                .table()
                .tableArn();
        assertThat(dynamo.listTagsOfResource(b -> b.resourceArn(tableArn)).tags())
                .contains(Tag.builder().key("restored-by").value("ops").build());

        // and the RestoreTableFromBackup request is one DynamoDB accepts
        var request = natives.snapRequests.get(0);
        assertThat(request.backupArn()).isEqualTo(arn);
        assertThat(request.targetTableName()).isEqualTo("ledger-restored");
        assertThat(ApiShapes.dynamodb().violations("RestoreTableFromBackup", wire("RestoreTableFromBackup", request)))
                .isEmpty();
    }

    // ---- helpers ----

    static RestoreRequested request(String id, Source source, Scope scope, Destination destination) {
        return RestoreRequests.aRestore(id)
                .from(source)
                .scope(scope)
                .into(destination)
                .normalizedAt(Instant.now());
    }

    /** Takes the restore's steps until it ends or waits for item-writers; returns what was published. */
    static List<RestoreEvent> runToEnd(RestoreRequested request) {
        var view = new RestoreView(request.restoreId());
        view.apply(RestoreAccepted.of(request));
        var events = new ArrayList<RestoreEvent>();
        for (int i = 0; i < 50; i++) {
            RestoreSteps.Step step = RestoreSteps.next(view);
            if (step == null || step == RestoreSteps.Step.DISPATCH) {
                return events;
            }
            RestoreSteps.Outcome outcome;
            try {
                outcome = steps.run(step, RestoreSteps.Snapshot.of(view));
            } catch (RestoreSteps.StepException e) {
                outcome = RestoreSteps.Outcome.of(RestoreFailed.of(request.restoreId(), e.getMessage(), 0));
            }
            outcome.events().forEach(view::apply);
            events.addAll(outcome.events());
            if (outcome.again() != null) {
                sleep(outcome.again());
            }
        }
        throw new AssertionError("restore " + request.restoreId() + " did not end: " + types(events));
    }

    static List<String> types(List<RestoreEvent> events) {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The request as the SDK puts it on the wire (captured before it leaves). */
    static tools.jackson.databind.JsonNode wire(String operation, Object request) {
        var sent = new SentRequests();
        try (DynamoDbClient capture = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
                .overrideConfiguration(c -> c.addExecutionInterceptor(sent))
                .build()) {
            try {
                if (request instanceof software.amazon.awssdk.services.dynamodb.model.ImportTableRequest r) {
                    capture.importTable(r);
                } else {
                    capture.restoreTableFromBackup(
                            (software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest) request);
                }
            } catch (SentRequests.Captured expected) {
                // the interceptor stops the request once it has its body
            } catch (RuntimeException e) {
                if (!(e.getCause() instanceof SentRequests.Captured)) {
                    throw e;
                }
            }
        }
        return sent.only(operation).body();
    }

    static RandomItems.Shape shape(int lsis) {
        var indexKeys = new LinkedHashMap<String, String>();
        indexKeys.put("g", "S");
        for (int i = 0; i < lsis; i++) {
            indexKeys.put("l" + i, "S");
        }
        return new RandomItems.Shape("pk", "S", "sk", "N", indexKeys);
    }

    /** The same items for every LSI count: the generator is seeded, and index keys are drawn for 5 LSIs. */
    static List<Map<String, AttributeValue>> items(int lsis) {
        var all = new RandomItems(5150, shape(5)).items(ITEMS);
        var result = new ArrayList<Map<String, AttributeValue>>(all.size());
        for (var item : all) {
            var copy = new LinkedHashMap<>(item);
            for (int i = lsis; i < 5; i++) {
                copy.remove("l" + i);
            }
            result.add(copy);
        }
        return result;
    }

    /** ceil(size / 1 KB) of every item, plus the same for each of the first {@code restored} LSIs that has its key. */
    static long expectedWriteUnits(int lsis, int restored) {
        long units = 0;
        for (var item : items(lsis)) {
            long one = ItemSize.wcu(ItemSize.of(item));
            units += one;
            for (int i = 0; i < restored; i++) {
                if (item.containsKey("l" + i)) {
                    units += one;
                }
            }
        }
        return units;
    }

    static synchronized Backup backupWithLsis(int lsis) {
        return backups.computeIfAbsent(lsis, n -> {
            TableDescription table = createTable(dynalite.client(), "lsi" + n, n);
            var writer = new BackupWriter(aws.s3(), new VaultLayout("vault", ""), ACCOUNT, REGION, "lsi" + n, "b", 97)
                    .countingIndexesOf(table);
            try (var part = writer.openPart()) {
                items(n).forEach(part::write);
            }
            return writer.finish(
                    table,
                    List.of(),
                    null,
                    Instant.now().minus(Duration.ofHours(1)),
                    Instant.now().plus(Duration.ofDays(1)));
        });
    }

    static TableDescription createTable(DynamoDbClient dynamo, String name, int lsis) {
        var attributes = new ArrayList<>(List.of(
                attr("pk", ScalarAttributeType.S),
                attr("sk", ScalarAttributeType.N),
                attr("g", ScalarAttributeType.S)));
        var indexes = new ArrayList<LocalSecondaryIndex>();
        for (int i = 0; i < lsis; i++) {
            attributes.add(attr("l" + i, ScalarAttributeType.S));
            indexes.add(LocalSecondaryIndex.builder()
                    .indexName("byL" + i)
                    .keySchema(key("pk", KeyType.HASH), key("l" + i, KeyType.RANGE))
                    .projection(Projection.builder()
                            .projectionType(ProjectionType.ALL)
                            .build())
                    .build());
        }
        dynamo.createTable(b -> {
            b.tableName(name)
                    .attributeDefinitions(attributes)
                    .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                    .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))
                    .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                            .indexName("byG")
                            .keySchema(key("g", KeyType.HASH))
                            .projection(Projection.builder()
                                    .projectionType(ProjectionType.KEYS_ONLY)
                                    .build())
                            .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))
                            .build());
            if (!indexes.isEmpty()) {
                b.localSecondaryIndexes(indexes);
            }
        });
        Dynalite.awaitActive(dynamo, name);
        return dynamo.describeTable(b -> b.tableName(name)).table();
    }
}
