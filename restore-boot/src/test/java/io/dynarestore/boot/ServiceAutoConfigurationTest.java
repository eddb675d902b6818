package io.dynarestore.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.ConsumerThread;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.test.util.ReflectionTestUtils;

class ServiceAutoConfigurationTest {

    // Kafka's properties without its auto-configuration: no admin client that would look for a broker
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class))
            .withBean(KafkaProperties.class, ServiceAutoConfigurationTest::kafka)
            .withPropertyValues("spring.application.name=some-service");

    private static KafkaProperties kafka() {
        var kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of("localhost:1"));
        return kafka;
    }

    record Topics(TopicDefinitions topics) implements ServiceSettings {}

    record Vault(TopicDefinitions topics, AwsSettings aws, VaultSettings vault) implements VaultReaderSettings {}

    /** What KafkaAdmin creates from the bean (its accessor is package-private). */
    private static Collection<NewTopic> topicsOf(KafkaAdmin.NewTopics topics) {
        return ReflectionTestUtils.invokeMethod(topics, "getNewTopics");
    }

    @Test
    void aServiceGetsItsConsumerHealthPublisherAndTopicsButNoAwsClientsWithoutVaultSettings() {
        // Given a service whose settings name its topics but no vault
        runner.withBean(Topics.class, () -> new Topics(new TopicDefinitions((short) 1, Map.of("restore.requests", 5))))
                // When its context starts
                .run(context -> {
                    // Then it has the shared beans, and its topics with their partition counts
                    assertThat(context).hasSingleBean(ConsumerHealth.class).hasSingleBean(EventPublisher.class);
                    assertThat(context).doesNotHaveBean(AwsClients.class).doesNotHaveBean(VaultCatalog.class);
                    Collection<NewTopic> topics = topicsOf(context.getBean(KafkaAdmin.NewTopics.class));
                    assertThat(topics)
                            .filteredOn(t -> t.name().equals("restore.requests"))
                            .singleElement()
                            .satisfies(t -> assertThat(t.numPartitions()).isEqualTo(5));
                });
    }

    @Test
    void unsetTopicsAreTheLocalSingleBrokerOnes() {
        // Given a service whose settings leave the topics unset
        runner.withBean(Topics.class, () -> new Topics(null)).run(context -> {
            // Then it creates the local topics
            var names = topicsOf(context.getBean(KafkaAdmin.NewTopics.class)).stream()
                    .map(NewTopic::name)
                    .toList();
            assertThat(names)
                    .containsExactlyInAnyOrderElementsOf(TopicDefinitions.local().newTopics().stream()
                            .map(NewTopic::name)
                            .toList());
        });
    }

    @Test
    void aServiceThatReadsTheVaultGetsAwsClientsAndTheCatalogOfItsBucket() {
        // Given a service whose settings read the vault
        var aws = new AwsSettings(
                "111111111111",
                "eu-west-1",
                new AwsSettings.Credentials("key", "secret"),
                new AwsSettings.S3(URI.create("http://localhost:1"), "eu-west-1", true),
                null,
                null,
                List.of());
        runner.withBean(Vault.class, () -> new Vault(null, aws, new VaultSettings("vault", "backups")))
                .run(context -> {
                    // Then it has AWS clients and a catalog of that bucket and root
                    assertThat(context).hasSingleBean(AwsClients.class);
                    assertThat(context.getBean(VaultCatalog.class).layout())
                            .isEqualTo(new VaultSettings("vault", "backups").layout());
                });
    }

    @Test
    void aPublisherTheServiceDeclaresItselfIsKept() {
        // Given a service that declares its own publisher (restore-api signs what it publishes)
        runner.withBean(
                        "signingPublisher",
                        EventPublisher.class,
                        () -> new EventPublisher(Map.of("bootstrap.servers", "localhost:1"), "restore-api", "key"),
                        d -> d.setDestroyMethodName("close"))
                .run(context -> {
                    // Then the shared wiring adds none
                    assertThat(context).hasSingleBean(EventPublisher.class).hasBean("signingPublisher");
                });
    }

    @Test
    void theConsumersIndicatorIsDownOnceAConsumerThreadEndedByItself() {
        runner.run(context -> {
            // Given a service's consumer health and its indicator, UP while no thread failed
            var health = context.getBean(ConsumerHealth.class);
            var indicator = context.getBean("consumersHealthIndicator", HealthIndicator.class);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

            // When a consumer thread ends on an exception of its own
            var thread = new ConsumerThread(
                    "failing-consumer",
                    Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1"),
                    health,
                    consumer -> {
                        throw new IllegalStateException("a bug");
                    });
            thread.start();

            // Then the indicator turns DOWN and names the thread and why
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> indicator.health().getStatus().equals(Status.DOWN));
            assertThat(indicator.health().getDetails())
                    .containsKey("failing-consumer")
                    .hasEntrySatisfying(
                            "failing-consumer",
                            why -> assertThat(why.toString()).contains("a bug"));
        });
    }
}
