package io.dynarestore.api.protection;

import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import java.time.Duration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ProtectionWiring {

    @Bean(initMethod = "start", destroyMethod = "close")
    Policies policies(KafkaProperties kafka, EventPublisher publisher, ConsumerHealth health) {
        return new Policies(kafka.buildConsumerProperties(), publisher, health, Duration.ofSeconds(5));
    }
}
