package io.dynarestore.protector;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.protector.backups.SegmentWorker;
import io.dynarestore.protector.tables.Protector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

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

    @Bean
    KafkaAdmin.NewTopics topics(ProtectorProperties properties) {
        TopicDefinitions topics = properties.topics() == null ? TopicDefinitions.local() : properties.topics();
        return new KafkaAdmin.NewTopics(topics.newTopics().toArray(new NewTopic[0]));
    }

    @Bean(destroyMethod = "close")
    AwsClients awsClients(ProtectorProperties properties) {
        return new AwsClients(properties.aws());
    }

    @Bean
    VaultCatalog vaultCatalog(AwsClients aws, ProtectorProperties properties) {
        return new VaultCatalog(aws.s3(), properties.vault().layout());
    }

    @Bean(destroyMethod = "close")
    EventPublisher eventPublisher(KafkaProperties kafka) {
        return new EventPublisher(kafka.buildProducerProperties(), "protector");
    }

    @Bean
    ConsumerHealth consumerHealth() {
        return new ConsumerHealth();
    }

    /** DOWN once a consumer thread ended by itself; part of the liveness group (protector.yml). */
    @Bean
    HealthIndicator consumersHealthIndicator(ConsumerHealth consumers) {
        return () -> (consumers.healthy() ? Health.up() : Health.down())
                .withDetails(consumers.details())
                .build();
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
