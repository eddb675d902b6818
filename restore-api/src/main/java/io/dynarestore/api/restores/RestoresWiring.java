package io.dynarestore.api.restores;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RestoresWiring {

    @Bean
    RestoreViews restoreViews(KafkaProperties kafka, io.dynarestore.core.kafka.ConsumerHealth health,
                              io.dynarestore.api.ApiProperties properties) {
        return new RestoreViews(kafka.buildConsumerProperties(), health, properties.views().retainEnded(),
                properties.views().maxEnded());
    }

    @Bean
    CallerLimits callerLimits(io.dynarestore.api.ApiProperties properties) {
        return new CallerLimits(properties.limits());
    }

    @Bean
    RestoreFiles restoreFiles(RestoreViews views, io.dynarestore.core.aws.AwsClients aws) {
        return new RestoreFiles(views, aws);
    }
}
