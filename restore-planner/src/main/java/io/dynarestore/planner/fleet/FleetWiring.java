package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepStager;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class FleetWiring {

    @Bean
    DeltaStager deltaStager(AwsClients aws, VaultCatalog catalog, PlannerProperties properties) {
        var pitr = properties.pitr();
        return new DeltaStager(aws.s3(), catalog, pitr.deltaMemory().toBytes(), pitr.linesPerFile());
    }

    @Bean
    SweepStager sweepStager(AwsClients aws, VaultCatalog catalog, PlannerProperties properties) {
        var pitr = properties.pitr();
        return new SweepStager(aws.s3(), catalog, pitr.deltaMemory().toBytes(), pitr.linesPerFile());
    }

    @Bean(destroyMethod = "close")
    PlanningGroup planningGroup(KafkaProperties kafka, PlannerProperties properties) {
        return new PlanningGroup(
                kafka.buildAdminProperties(),
                properties.group() + "-planning",
                Topic.PLANNING.topicName(),
                Duration.ofSeconds(5));
    }

    @Bean
    SharedDeltas sharedDeltas(
            DeltaStager deltaStager,
            AwsClients aws,
            VaultCatalog catalog,
            EventPublisher publisher,
            PlanningGroup planningGroup,
            PlannerProperties properties) {
        return new SharedDeltas(
                deltaStager,
                aws.s3(),
                catalog.layout(),
                publisher,
                planningGroup,
                properties.fleet(),
                Duration.ofMillis(250));
    }

    @Bean
    SharedSweeps sharedSweeps(
            SweepStager sweepStager,
            AwsClients aws,
            VaultCatalog catalog,
            EventPublisher publisher,
            PlanningGroup planningGroup,
            PlannerProperties properties) {
        return new SharedSweeps(
                sweepStager,
                aws::dynamo,
                aws.s3(),
                catalog.layout(),
                publisher,
                planningGroup,
                properties.fleet(),
                Duration.ofMillis(250));
    }

    /** Builds the delta and sweep parts this replica is assigned, whichever replica owns their restore. */
    @Bean(initMethod = "start", destroyMethod = "close")
    PlanningPartWorker planningPartWorker(
            DeltaStager deltaStager,
            SweepStager sweepStager,
            AwsClients aws,
            VaultCatalog catalog,
            EventPublisher publisher,
            PlannerProperties properties,
            KafkaProperties kafka,
            ConsumerHealth health,
            MeterRegistry registry) {
        return new PlanningPartWorker(
                deltaStager,
                sweepStager,
                aws::dynamo,
                aws.s3(),
                catalog.layout(),
                publisher,
                properties.group(),
                kafka.buildConsumerProperties(),
                health,
                registry);
    }
}
