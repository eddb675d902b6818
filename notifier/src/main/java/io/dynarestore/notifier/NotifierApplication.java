package io.dynarestore.notifier;

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
 * notifier: joins its consumer group on {@code status} and counts what it receives
 * ({@code dynarestore.notifier.received}). Its real work arrives with its own issue.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class NotifierApplication {

    /** The service's configuration file is {@code notifier.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(NotifierApplication.class).properties("spring.config.name=notifier");
    }

    public static void main(String[] args) {
        builder().run(args);
    }

    /** Configuration of notifier, under {@code notifier}. */
    @ConfigurationProperties("notifier")
    public record NotifierProperties(TopicDefinitions topics, @DefaultValue("notifier") String group) {
    }

    @Bean
    KafkaAdmin.NewTopics topics(NotifierProperties properties) {
        return new KafkaAdmin.NewTopics(properties.topics().newTopics().toArray(new NewTopic[0]));
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    TopicFollower follower(KafkaProperties kafka, NotifierProperties properties, MeterRegistry meters) {
        Counter received = meters.counter("dynarestore.notifier.received");
        return new TopicFollower(kafka.buildConsumerProperties(), properties.group(), Topic.STATUS.topicName(),
                record -> received.increment());
    }
}
