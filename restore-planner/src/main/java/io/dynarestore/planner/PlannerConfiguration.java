package io.dynarestore.planner;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

@Configuration(proxyBeanMethods = false)
class PlannerConfiguration {

    @Bean(destroyMethod = "close")
    AwsClients awsClients(PlannerProperties properties) {
        return new AwsClients(properties.aws());
    }

    @Bean
    VaultCatalog vaultCatalog(AwsClients aws, PlannerProperties properties) {
        return new VaultCatalog(aws.s3(), properties.vault().layout());
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    RestoreValidator restoreValidator(VaultCatalog catalog, AwsClients aws, Clock clock, PlannerProperties properties) {
        return new RestoreValidator(
                catalog, aws, clock, properties.webhooks().addresses(), properties.maxCapacityUnits());
    }

    @Bean
    ConsumerHealth consumerHealth() {
        return new ConsumerHealth();
    }

    /** DOWN once a consumer thread ended by itself; part of the liveness group (restore-planner.yml). */
    @Bean
    HealthIndicator consumersHealthIndicator(ConsumerHealth consumers) {
        return () -> (consumers.healthy() ? Health.up() : Health.down())
                .withDetails(consumers.details())
                .build();
    }

    @Bean(destroyMethod = "close")
    EventPublisher eventPublisher(KafkaProperties kafka) {
        return new EventPublisher(kafka.buildProducerProperties(), "restore-planner");
    }

    @Bean
    KafkaAdmin.NewTopics topics(PlannerProperties properties) {
        return new KafkaAdmin.NewTopics(properties.topics().newTopics().toArray(new NewTopic[0]));
    }
}
