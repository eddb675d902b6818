package io.dynarestore.protector;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.protector.backups.SegmentWorker;
import io.dynarestore.protector.tables.Protector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;

/**
 * protector: the protection side. Each replica protects the tables whose policies
 * ({@code restore.protection}) fall on its partitions: scheduled SCAN backups into the vault, the
 * change log captured from each table's DynamoDB Stream, and retention; what it did goes to
 * {@code restore.protection.events}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ProtectorApplication {

    /** The service's configuration file is {@code protector.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(ProtectorApplication.class).properties("spring.config.name=protector");
    }

    public static void main(String[] args) {
        builder().run(args);
    }

    /** Signs what it publishes as the protector (its drills' requests), so that the planner can tell it from others. */
    @Bean(destroyMethod = "close")
    EventPublisher eventPublisher(KafkaProperties kafka, ProtectorProperties properties) {
        return new EventPublisher(kafka.buildProducerProperties(), "protector", properties.signingKey());
    }

    /** Scans the shared segments of SCAN backups this replica is assigned, whichever replica takes the backup. */
    @Bean(initMethod = "start", destroyMethod = "close")
    SegmentWorker segmentWorker(
            AwsClients aws,
            VaultCatalog catalog,
            ProtectorProperties properties,
            EventPublisher events,
            MeterRegistry registry,
            KafkaProperties kafka,
            ConsumerHealth health) {
        return new SegmentWorker(
                aws,
                catalog.layout(),
                events,
                properties.backups().segmentWorkers(),
                properties.group(),
                kafka.buildConsumerProperties(),
                health,
                registry);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    Protector protector(
            AwsClients aws,
            VaultCatalog catalog,
            ProtectorProperties properties,
            EventPublisher events,
            MeterRegistry registry,
            KafkaProperties kafka,
            ConsumerHealth health) {
        return new Protector(
                aws, catalog, properties, events, registry, kafka.buildConsumerProperties(), health, Clock.systemUTC());
    }
}
