package io.dynarestore.e2e.deploy;

import static io.dynarestore.e2e.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Topic;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The compose file, the chart and the services' Spring configuration name the same topics,
 * partition counts, ports, consumer groups, prefixes and environment variables; a rename in one
 * place that is not made in the others fails here, not in a cluster.
 */
class DeploymentConsistencyTest {

    /** Variables the JVM or Spring Boot read without a placeholder in our files. */
    static final Set<String> PLATFORM =
            Set.of("SPRING_PROFILES_ACTIVE", "SPRING_CONFIG_ADDITIONAL_LOCATION", "JAVA_TOOL_OPTIONS", "AWS_REGION");

    @Test
    void composeCreatesEveryTopicOfTheContractsWithItsPartitionCount() throws Exception {
        Map<String, Object> compose = Manifests.file(Manifests.root().resolve("docker-compose.yml"));
        String command = String.join(" ", (List<String>) at(compose, "services", "kafka-init", "command"));
        Matcher m = Pattern.compile("--topic (\\S+) --partitions (\\d+)").matcher(command);
        var created = new TreeMap<String, Integer>();
        while (m.find()) {
            created.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        var expected = new TreeMap<String, Integer>();
        for (Topic t : Topic.values()) {
            expected.put(t.topicName(), t.defaultPartitions());
            expected.put(t.dlt(), t.defaultPartitions());
        }
        assertThat(created).isEqualTo(expected);
    }

    @Test
    void composeChartPrometheusAndSpringAgreeOnEachServicesPortPrefixAndVariables() throws Exception {
        Map<String, Object> compose = Manifests.file(Manifests.root().resolve("docker-compose.yml"));
        Map<String, Object> values = Manifests.file(Manifests.root().resolve("helm/dynarestore/values.yaml"));
        String prometheus = Files.readString(Manifests.root().resolve("docker/prometheus.yml"));
        var chart = HelmChartTest.render(null);
        for (var service : Manifests.SERVICES) {
            String config = Manifests.springConfig(service.name());
            String port = Manifests.placeholderDefault(config, "PORT");
            Map<String, Object> composed = at(compose, "services", service.name());
            Map<String, Object> env = at(composed, "environment");

            // the port: Spring's default, compose's PORT and mapping, the chart's values and Prometheus' target
            assertThat(port).as(service.name() + " server.port default").isEqualTo(String.valueOf(service.port()));
            assertThat(String.valueOf(env.get("PORT")))
                    .as(service.name() + " PORT in compose")
                    .isEqualTo(port);
            assertThat((List<String>) composed.get("ports"))
                    .as(service.name() + " ports in compose")
                    .contains(port + ":" + port);
            assertThat(String.valueOf((Object) at(values, "services", service.name(), "port")))
                    .as(service.name() + " port in the chart")
                    .isEqualTo(port);
            assertThat(prometheus).as("prometheus target").contains(service.name() + ":" + port);

            // the prefix: the chart's is the one root key of the service's own configuration
            assertThat(config).as(service.name() + ".yml").containsPattern("(?m)^" + service.prefix() + ":$");
            assertThat((String) at(values, "services", service.name(), "prefix"))
                    .isEqualTo(service.prefix());

            // every variable compose or the chart sets is one the service reads
            var reads = Set.copyOf(Manifests.placeholders(config));
            for (String name : env.keySet()) {
                assertThat(PLATFORM.contains(name) || reads.contains(name))
                        .as(service.name() + " reads " + name + " (set in docker-compose.yml)")
                        .isTrue();
            }
            List<Map<String, Object>> chartEnv = at(
                    HelmChartTest.find(chart, "Deployment", service.name()),
                    "spec",
                    "template",
                    "spec",
                    "containers",
                    "0",
                    "env");
            for (Map<String, Object> e : chartEnv) {
                String name = (String) e.get("name");
                assertThat(PLATFORM.contains(name) || reads.contains(name))
                        .as(service.name() + " reads " + name + " (set by the chart)")
                        .isTrue();
            }
        }
    }

    @Test
    void theAutoscalersWatchTheGroupsAndTopicsTheServicesUse() throws Exception {
        var docs = HelmChartTest.render(Manifests.root().resolve("helm/values-production.yaml"));
        for (var scaled :
                Map.of("item-writer", Topic.SEGMENTS, "exporter", Topic.EXPORTS).entrySet()) {
            String config = Manifests.springConfig(scaled.getKey());
            Matcher group = Pattern.compile("(?m)^  group: (\\S+)$").matcher(config);
            assertThat(group.find()).isTrue();
            Map<String, Object> metadata =
                    at(HelmChartTest.find(docs, "ScaledObject", scaled.getKey()), "spec", "triggers", "0", "metadata");
            assertThat(metadata.get("consumerGroup")).isEqualTo(group.group(1));
            assertThat(metadata.get("topic")).isEqualTo(scaled.getValue().topicName());
        }
        // and the chart's dashboard is the one in docs/
        assertThat(Files.readString(Manifests.root().resolve("helm/dynarestore/dashboards/dynarestore-dashboard.json")))
                .isEqualTo(Files.readString(Manifests.root().resolve("docs/grafana/dynarestore-dashboard.json")));
    }
}
