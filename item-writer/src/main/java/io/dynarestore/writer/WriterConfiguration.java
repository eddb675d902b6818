package io.dynarestore.writer;

import io.dynarestore.core.aws.AwsClients;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class WriterConfiguration {

    @Bean(destroyMethod = "close")
    AwsClients awsClients(WriterProperties properties) {
        return new AwsClients(properties.aws(), properties.resilience().sdkAttempts());
    }
}
