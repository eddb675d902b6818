package io.dynarestore.exporter;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.kafka.TopicFollower;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * exporter: joins its consumer group on {@code exports} and counts what it receives
 * ({@code dynarestore.exporter.received}). Its real work arrives with its own issue.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ExporterApplication {

    /** The service's configuration file is {@code exporter.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(ExporterApplication.class).properties("spring.config.name=exporter");
    }

    public static void main(String[] args) {
        builder().run(args);
    }

    /** Configuration of exporter, under {@code exporter}. */
    @ConfigurationProperties("exporter")
    public record ExporterProperties(TopicDefinitions topics, @DefaultValue("exporter") String group) {
    }

    @Bean
    KafkaAdmin.NewTopics topics(ExporterProperties properties) {
        return new KafkaAdmin.NewTopics(properties.topics().newTopics().toArray(new NewTopic[0]));
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    TopicFollower follower(KafkaProperties kafka, ExporterProperties properties, MeterRegistry meters) {
        Counter received = meters.counter("dynarestore.exporter.received");
        return new TopicFollower(kafka.buildConsumerProperties(), properties.group(), Topic.EXPORTS.topicName(),
                record -> received.increment());
    }
}
