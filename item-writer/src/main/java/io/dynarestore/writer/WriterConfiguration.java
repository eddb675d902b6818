package io.dynarestore.writer;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

@Configuration(proxyBeanMethods = false)
class WriterConfiguration {

    @Bean(destroyMethod = "close")
    AwsClients awsClients(WriterProperties properties) {
        return new AwsClients(properties.aws(), properties.resilience().sdkAttempts());
    }

    @Bean(destroyMethod = "close")
    EventPublisher eventPublisher(KafkaProperties kafka) {
        return new EventPublisher(kafka.buildProducerProperties(), "item-writer");
    }

    @Bean
    ConsumerHealth consumerHealth() {
        return new ConsumerHealth();
    }

    /** DOWN once a consumer thread ended by itself; part of the liveness group (item-writer.yml). */
    @Bean
    HealthIndicator consumersHealthIndicator(ConsumerHealth consumers) {
        return () -> (consumers.healthy() ? Health.up() : Health.down())
                .withDetails(consumers.details())
                .build();
    }

    @Bean
    KafkaAdmin.NewTopics topics(WriterProperties properties) {
        return new KafkaAdmin.NewTopics(properties.topics().newTopics().toArray(new NewTopic[0]));
    }
}
