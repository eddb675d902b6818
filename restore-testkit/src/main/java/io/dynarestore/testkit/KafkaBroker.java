package io.dynarestore.testkit;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * A real Kafka broker (KRaft) with the given topics and partition counts, automatic topic
 * creation off as in production. By default it runs in this JVM (spring-kafka-test). With
 * {@code -Ddynarestore.kafka=testcontainers} (or the environment variable {@code DYNARESTORE_KAFKA=testcontainers}) it is the
 * {@code apache/kafka} image in Docker, through Testcontainers; every test that uses this class
 * then runs against it. That switch needs a Docker engine and says so when there is none.
 */
public final class KafkaBroker implements AutoCloseable {

    /** The image of the Docker variant; the same as docker-compose.yml's. */
    public static final String IMAGE = "apache/kafka:4.1.0";

    private final AutoCloseable broker;
    private final String bootstrapServers;

    private KafkaBroker(AutoCloseable broker, String bootstrapServers) {
        this.broker = broker;
        this.bootstrapServers = bootstrapServers;
    }

    /** Whether this run asked for the broker in Docker. */
    public static boolean inDocker() {
        String asked = System.getProperty("dynarestore.kafka", System.getenv().getOrDefault("DYNARESTORE_KAFKA", ""));
        return "testcontainers".equalsIgnoreCase(asked);
    }

    /** A broker with every topic created with its partition count. */
    public static KafkaBroker start(Map<String, Integer> topics) {
        return inDocker() ? startInDocker(topics) : startInProcess(topics);
    }

    private static KafkaBroker startInProcess(Map<String, Integer> topics) {
        BrokerLogLevels.apply();
        var broker = new EmbeddedKafkaKraftBroker(1, 1);
        // spring-kafka-test would also publish each broker as the system property spring.kafka.bootstrap-servers,
        // which outranks every service's configuration: a service started later in this JVM would then reach
        // the last broker started, even one closed since, instead of the broker its own arguments name. It
        // takes a property name, not none: the one it sets anyway, which no service reads
        broker.brokerListProperty("spring.embedded.kafka.brokers");
        broker.brokerProperties(Map.of(
                "auto.create.topics.enable", "false",
                "group.initial.rebalance.delay.ms", "0",
                "offsets.topic.num.partitions", "5",
                "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1"));
        broker.afterPropertiesSet();
        topics.forEach((name, partitions) -> broker.addTopics(new NewTopic(name, partitions, (short) 1)));
        return new KafkaBroker(broker::destroy, broker.getBrokersAsString());
    }

    private static KafkaBroker startInDocker(Map<String, Integer> topics) {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("dynarestore.kafka=testcontainers needs a Docker engine, and none answers "
                    + "here; leave the switch out to use the in-process broker");
        }
        var container = new KafkaContainer(IMAGE)
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        container.start();
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, container.getBootstrapServers()))) {
            admin.createTopics(topics.entrySet().stream()
                            .map(t -> new NewTopic(t.getKey(), t.getValue(), (short) 1))
                            .toList())
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            container.stop();
            throw new IllegalStateException("could not create the topics in the Kafka container", e);
        }
        return new KafkaBroker(container::stop, container.getBootstrapServers());
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        try {
            broker.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
