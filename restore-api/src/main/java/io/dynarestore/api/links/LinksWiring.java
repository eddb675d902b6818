package io.dynarestore.api.links;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class LinksWiring {

    @Bean
    Links links(
            KafkaProperties kafka,
            EventPublisher publisher,
            ApiProperties properties,
            Clock clock,
            MeterRegistry meters,
            ConsumerHealth health) {
        return new Links(kafka.buildConsumerProperties(), publisher, properties.links(), clock, meters, health);
    }
}
