package io.dynarestore.boot;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultCatalog;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The beans every service wires alike (ADR 0030). A service declares one of them itself only where
 * it differs: restore-api signs what it publishes, the item-writer retries DynamoDB calls its own
 * number of times.
 *
 * <ul>
 *   <li>{@link ConsumerHealth}, and the {@code consumers} health indicator that turns DOWN once a
 *       consumer thread ended by itself (part of each service's liveness group);
 *   <li>an {@link EventPublisher} that names the service by {@code spring.application.name};
 *   <li>the topics of the service's {@link ServiceSettings}, created when missing;
 *   <li>for a service whose settings are {@link VaultReaderSettings}: its {@link AwsClients} and the
 *       {@link VaultCatalog}.
 * </ul>
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class)
public class ServiceAutoConfiguration {

    @Bean
    ConsumerHealth consumerHealth() {
        return new ConsumerHealth();
    }

    /** DOWN once a consumer thread ended by itself. */
    @Bean
    HealthIndicator consumersHealthIndicator(ConsumerHealth consumers) {
        return () -> (consumers.healthy() ? Health.up() : Health.down())
                .withDetails(consumers.details())
                .build();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    EventPublisher eventPublisher(KafkaProperties kafka, @Value("${spring.application.name}") String service) {
        return new EventPublisher(kafka.buildProducerProperties(), service);
    }

    @Bean
    @ConditionalOnBean(ServiceSettings.class)
    KafkaAdmin.NewTopics topics(ServiceSettings settings) {
        TopicDefinitions topics = settings.topics() == null ? TopicDefinitions.local() : settings.topics();
        return new KafkaAdmin.NewTopics(topics.newTopics().toArray(new NewTopic[0]));
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(VaultReaderSettings.class)
    AwsClients awsClients(VaultReaderSettings settings) {
        return new AwsClients(settings.aws());
    }

    @Bean
    @ConditionalOnBean(VaultReaderSettings.class)
    VaultCatalog vaultCatalog(AwsClients aws, VaultReaderSettings settings) {
        return new VaultCatalog(aws.s3(), settings.vault().layout());
    }
}
