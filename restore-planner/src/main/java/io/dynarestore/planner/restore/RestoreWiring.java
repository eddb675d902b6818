package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.capacity.CapacityManager;
import io.dynarestore.planner.destination.DynamoNativeTables;
import io.dynarestore.planner.destination.TableCreator;
import io.dynarestore.planner.fleet.PlanningGroup;
import io.dynarestore.planner.fleet.SharedDeltas;
import io.dynarestore.planner.fleet.SharedSweeps;
import io.dynarestore.planner.staging.BacktrackStager;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.ImportStager;
import io.dynarestore.planner.staging.SweepStager;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

@Configuration(proxyBeanMethods = false)
class RestoreWiring {

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService plannerWorkers(PlannerProperties properties) {
        // bounded queue; when full the loop thread runs the step itself, which slows intake down
        return new ThreadPoolExecutor(
                properties.workers(),
                properties.workers(),
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1_000),
                DaemonThreads.named("planner-step"),
                new ThreadPoolExecutor.CallerRunsPolicy());
    }

    /** The exporter replicas, counted for splitting large exports (ADR 0041). */
    @Bean(destroyMethod = "close")
    ExportSplits exportSplits(KafkaProperties kafka, PlannerProperties properties) {
        return new ExportSplits(
                new PlanningGroup(
                        kafka.buildAdminProperties(),
                        properties.exports().group(),
                        Topic.EXPORTS.topicName(),
                        Duration.ofSeconds(5)),
                properties.exports());
    }

    @Bean
    PlannerLoop plannerLoop(
            ExportSplits exportSplits,
            DeltaStager deltaStager,
            SharedDeltas sharedDeltas,
            SweepStager sweepStager,
            SharedSweeps sharedSweeps,
            KafkaProperties kafka,
            PlannerProperties properties,
            EventPublisher publisher,
            RestoreValidator validator,
            VaultCatalog catalog,
            AwsClients aws,
            Clock clock,
            ExecutorService plannerWorkers,
            MeterRegistry meters,
            ConsumerHealth health,
            Environment env) {
        var intake = new RequestIntake(
                publisher, validator, aws.defaultAccount(), aws.defaultRegion(), clock, access(properties, aws, env));
        var steps = steps(
                properties,
                publisher,
                catalog,
                aws,
                clock,
                deltaStager,
                sharedDeltas,
                sweepStager,
                sharedSweeps,
                exportSplits);
        return new PlannerLoop(
                PlannerLoop.consumerConfig(kafka.buildConsumerProperties(), properties.group()),
                intake,
                steps,
                publisher,
                plannerWorkers,
                properties.progressInterval(),
                meters,
                health,
                properties.retainEnded());
    }

    /** The steps of a restore, each a collaborator built from the settings it uses. */
    private static RestoreSteps steps(
            PlannerProperties properties,
            EventPublisher publisher,
            VaultCatalog catalog,
            AwsClients aws,
            Clock clock,
            DeltaStager stager,
            SharedDeltas sharedDeltas,
            SweepStager sweeper,
            SharedSweeps sharedSweeps,
            ExportSplits exportSplits) {
        var pitr = properties.pitr();
        var backtracks =
                new BacktrackStager(aws.s3(), catalog, pitr.deltaMemory().toBytes(), pitr.linesPerFile());
        var strategy = properties.strategy();
        var capacity = new CapacityManager(
                aws, properties.capacity().raise(), properties.capacity().writeUnits(), properties.tableActive());
        var sources = new Sources(catalog, stager, aws);
        return new RestoreSteps(
                new Planning(
                        sources,
                        catalog,
                        sharedDeltas,
                        sharedSweeps,
                        backtrackPlanning(backtracks, sources, capacity, clock, pitr, strategy),
                        capacity,
                        aws,
                        clock,
                        pitr,
                        strategy,
                        exportSplits),
                new Preparation(
                        sources,
                        new TableCreator(aws, properties.tableActive()),
                        capacity,
                        aws,
                        publisher,
                        properties.tableActive(),
                        properties.warmThroughput()),
                new Dispatching(sources, catalog, sweeper, backtracks, aws, publisher, strategy, exportSplits),
                new Completion(stager, aws, clock, strategy),
                new NativeRestores(
                        sources,
                        new ImportStager(aws.s3(), catalog, strategy.stagingLinesPerFile()),
                        new DynamoNativeTables(aws),
                        aws,
                        publisher,
                        properties.tableActive(),
                        strategy),
                new Cancellation(clock, publisher, properties.cancelGrace()),
                new Rollbacks(catalog, aws, publisher, properties.rollback()),
                new CapacityPutBack(capacity, publisher, properties.capacity()),
                publisher);
    }

    /** Backtracking: the stager, and the wait for the change log's tail that it plans after. */
    private static BacktrackPlanning backtrackPlanning(
            BacktrackStager backtracks,
            Sources sources,
            CapacityManager capacity,
            Clock clock,
            PlannerProperties.Pitr pitr,
            PlannerProperties.Strategy strategy) {
        var tail = new ChangeLogTail(
                pitr.tailWait(),
                pitr.backtrackMaxLag(),
                Duration.ofMillis(500),
                clock,
                pitr.nativeTailWait(),
                pitr.nativeShortestWindow());
        return new BacktrackPlanning(backtracks, tail, sources, capacity, clock, pitr, strategy);
    }

    /** Who may restore what by {@code restore.requests}; roles without a proven identity are refused in prod. */
    private static RequestAccess access(PlannerProperties properties, AwsClients aws, Environment env) {
        var access = new RequestAccess(properties.access(), aws.defaultAccount());
        if (env.matchesProfiles("prod") && access.unidentifiedHaveRoles()) {
            throw new IllegalStateException(
                    "planner.access.unidentified grants " + properties.access().unidentified()
                            + " in the prod profile: anyone who may write restore.requests could then restore without proving "
                            + "who they are. Leave it empty in production, and give each publisher a key in "
                            + "planner.access.keys (docs/security.md).");
        }
        return access;
    }
}
