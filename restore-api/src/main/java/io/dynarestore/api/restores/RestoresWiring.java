package io.dynarestore.api.restores;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.ConsumerHealth;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RestoresWiring {

    @Bean
    RestoreViews restoreViews(KafkaProperties kafka, ConsumerHealth health, ApiProperties properties) {
        return new RestoreViews(
                kafka.buildConsumerProperties(),
                health,
                properties.views().retainEnded(),
                properties.views().maxEnded());
    }

    @Bean
    CallerLimits callerLimits(ApiProperties properties) {
        return new CallerLimits(properties.limits());
    }

    @Bean
    RestoreFiles restoreFiles(RestoreViews views, AwsClients aws) {
        return new RestoreFiles(views, aws);
    }
}
