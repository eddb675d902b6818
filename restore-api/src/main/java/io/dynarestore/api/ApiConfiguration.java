package io.dynarestore.api;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ApiConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    RestoreValidator restoreValidator(VaultCatalog catalog, AwsClients aws, Clock clock, ApiProperties properties) {
        return new RestoreValidator(
                catalog,
                aws,
                clock,
                properties.webhooks().addresses(),
                properties.limits().maxCapacityUnits());
    }

    /** Signs what it publishes as restore-api, so that the planner can tell it from a producer that claims to be it. */
    @Bean(destroyMethod = "close")
    EventPublisher eventPublisher(KafkaProperties kafka, ApiProperties properties) {
        return new EventPublisher(kafka.buildProducerProperties(), "restore-api", properties.signingKey());
    }
}
