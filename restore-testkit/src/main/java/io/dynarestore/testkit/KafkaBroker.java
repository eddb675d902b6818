package io.dynarestore.testkit;

import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (KRaft) in this JVM, from spring-kafka-test, with the given topics and
 * partition counts. Automatic topic creation is off, as in production.
 */
public final class KafkaBroker implements AutoCloseable {

    private final EmbeddedKafkaKraftBroker broker;

    private KafkaBroker(EmbeddedKafkaKraftBroker broker) {
        this.broker = broker;
    }

    /** A broker with every topic created with its partition count. */
    public static KafkaBroker start(Map<String, Integer> topics) {
        var broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperties(Map.of(
                "auto.create.topics.enable", "false",
                "group.initial.rebalance.delay.ms", "0",
                "offsets.topic.num.partitions", "5",
                "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1"));
        broker.afterPropertiesSet();
        topics.forEach((name, partitions) -> broker.addTopics(new org.apache.kafka.clients.admin.NewTopic(name,
                partitions, (short) 1)));
        return new KafkaBroker(broker);
    }

    public String bootstrapServers() {
        return broker.getBrokersAsString();
    }

    @Override
    public void close() {
        broker.destroy();
    }
}
