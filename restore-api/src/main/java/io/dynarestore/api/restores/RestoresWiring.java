package io.dynarestore.api.restores;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class RestoresWiring {

    @Bean
    RestoreViews restoreViews(KafkaProperties kafka) {
        return new RestoreViews(kafka.buildConsumerProperties());
    }

    @Bean
    RestoreFiles restoreFiles(RestoreViews views, io.dynarestore.core.aws.AwsClients aws) {
        return new RestoreFiles(views, aws);
    }
}
