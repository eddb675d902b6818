package io.dynarestore.e2e.deploy;

import static io.dynarestore.e2e.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart, linted and rendered by Helm itself (embedded through helm-java, since no helm
 * binary runs here), for the default values and a production-like values file.
 */
class HelmChartTest {

    static final Path CHART = Manifests.root().resolve("helm/dynarestore");
    static final Path PRODUCTION = Manifests.root().resolve("helm/values-production.yaml");

    static List<Map<String, Object>> render(Path values) {
        var template = new Helm(CHART).template().withName("dynarestore").withNamespace("restores");
        if (values != null) {
            template.withValuesFile(values);
        }
        return Manifests.documents(template.call());
    }

    static Map<String, Object> find(List<Map<String, Object>> docs, String kind, String name) {
        return docs.stream()
                .filter(d -> kind.equals(d.get("kind")) && name.equals(at(d, "metadata", "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    static List<String> kinds(List<Map<String, Object>> docs) {
        return docs.stream().map(d -> (String) d.get("kind")).toList();
    }

    @Test
    void lintsWithoutErrorsOrWarnings() {
        var result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed())
                .as(String.join("\n", result.getMessages()))
                .isFalse();
    }

    @Test
    void rendersADeploymentServiceConfigMapAccountAndBudgetPerServiceWithProbesAndResources() {
        // When the chart is rendered with its default values
        var docs = render(null);

        // Then each service has its objects, named like its module
        for (var service : Manifests.SERVICES) {
            for (String kind : List.of("Deployment", "Service", "ConfigMap", "ServiceAccount", "PodDisruptionBudget")) {
                find(docs, kind, service.name());
            }
            Map<String, Object> deployment = find(docs, "Deployment", service.name());
            Map<String, Object> container = at(deployment, "spec", "template", "spec", "containers", "0");
            assertThat(container.get("image")).isEqualTo("dynarestore/" + service.name() + ":0.1.0-SNAPSHOT");
            assertThat((Integer) at(container, "ports", "0", "containerPort")).isEqualTo(service.port());
            assertThat((String) at(container, "livenessProbe", "httpGet", "path"))
                    .isEqualTo("/actuator/health/liveness");
            assertThat((String) at(container, "readinessProbe", "httpGet", "path"))
                    .isEqualTo("/actuator/health/readiness");
            assertThat((String) at(container, "resources", "limits", "memory")).isNotBlank();
            assertThat((String) at(container, "resources", "requests", "cpu")).isNotBlank();
            assertThat((Boolean) at(deployment, "spec", "template", "spec", "securityContext", "runAsNonRoot"))
                    .isTrue();
            // and its Spring configuration under its own prefix
            Map<String, Object> configMap = find(docs, "ConfigMap", service.name());
            Map<String, Object> config = Manifests.yaml().load((String) at(configMap, "data", service.name() + ".yml"));
            assertThat(config).containsOnlyKeys(service.prefix());
            assertThat((Integer) at(config, service.prefix(), "topics", "partitions", "restore.segments"))
                    .isEqualTo(24);
            assertThat((Integer) at(deployment, "spec", "replicas")).isPositive();
        }
        // and nothing optional is on by default
        assertThat(kinds(docs)).doesNotContain("ScaledObject", "ServiceMonitor");
    }

    @Test
    void rendersTheProductionValuesWithKedaBoundedByThePartitionsAndMonitoring() throws Exception {
        // When the chart is rendered with the production-like values (48 segment partitions, up to 64 writers asked)
        var docs = render(PRODUCTION);

        // Then KEDA scales item-writer on its group's lag on restore.segments, at most one per partition
        Map<String, Object> writers = find(docs, "ScaledObject", "item-writer");
        assertThat((Integer) at(writers, "spec", "minReplicaCount")).isEqualTo(8);
        assertThat((Integer) at(writers, "spec", "maxReplicaCount")).isEqualTo(48);
        assertThat((String) at(writers, "spec", "scaleTargetRef", "name")).isEqualTo("item-writer");
        Map<String, Object> trigger = at(writers, "spec", "triggers", "0");
        assertThat(trigger.get("type")).isEqualTo("kafka");
        assertThat((String) at(trigger, "metadata", "consumerGroup")).isEqualTo("item-writer");
        assertThat((String) at(trigger, "metadata", "topic")).isEqualTo("restore.segments");
        assertThat((String) at(trigger, "metadata", "bootstrapServers")).contains("kafka.eu-west-1.amazonaws.com");
        assertThat((String) at(find(docs, "ScaledObject", "exporter"), "spec", "triggers", "0", "metadata", "topic"))
                .isEqualTo("restore.exports");
        // and KEDA, not the Deployment, owns the writers' replica count; the others keep theirs
        assertThat((Object) at(find(docs, "Deployment", "item-writer"), "spec", "replicas"))
                .isNull();
        assertThat((Integer) at(find(docs, "Deployment", "restore-api"), "spec", "replicas"))
                .isEqualTo(3);

        // and each service runs as its own IAM role, from the registry's image
        assertThat((String) at(
                        find(docs, "ServiceAccount", "item-writer"),
                        "metadata",
                        "annotations",
                        "eks.amazonaws.com/role-arn"))
                .isEqualTo("arn:aws:iam::123456789012:role/dynarestore-writer");
        assertThat((String) at(
                        find(docs, "Deployment", "item-writer"),
                        "spec",
                        "template",
                        "spec",
                        "containers",
                        "0",
                        "image"))
                .isEqualTo("123456789012.dkr.ecr.eu-west-1.amazonaws.com/dynarestore/item-writer:0.1.0");
        // and secrets come by reference only
        List<Map<String, Object>> env =
                at(find(docs, "Deployment", "notifier"), "spec", "template", "spec", "containers", "0", "env");
        assertThat(env)
                .filteredOn(e -> e.get("name").equals("WEBHOOK_SIGNING_SECRET"))
                .singleElement()
                .satisfies(e -> assertThat((String) at(e, "valueFrom", "secretKeyRef", "name"))
                        .isEqualTo("dynarestore-webhooks"));
        assertThat(env)
                .filteredOn(e -> e.get("name").equals("SMTP_PASSWORD"))
                .singleElement()
                .satisfies(e -> assertThat(e).doesNotContainKey("value"));
        // and the protector signs its drills' requests with a key the planner holds too, both from the Secret
        for (String service : List.of("protector", "restore-planner")) {
            List<Map<String, Object>> its =
                    at(find(docs, "Deployment", service), "spec", "template", "spec", "containers", "0", "env");
            assertThat(its)
                    .as(service)
                    .filteredOn(e -> e.get("name").equals("PROTECTOR_SIGNING_KEY"))
                    .singleElement()
                    .satisfies(e -> assertThat((String) at(e, "valueFrom", "secretKeyRef", "key"))
                            .isEqualTo("protector"));
        }
        // and drill alerts go to the listed addresses, and to webhook URLs (which may hold tokens) from a Secret
        assertThat(env)
                .filteredOn(e -> e.get("name").equals("ALERT_EMAILS"))
                .singleElement()
                .satisfies(e -> assertThat(e.get("value")).isEqualTo("dba-oncall@example.com,platform@example.com"));
        assertThat(env)
                .filteredOn(e -> e.get("name").equals("ALERT_WEBHOOKS"))
                .singleElement()
                .satisfies(e -> assertThat((String) at(e, "valueFrom", "secretKeyRef", "name"))
                        .isEqualTo("dynarestore-alerts"));
        // and the account registry reaches every service's configuration
        Map<String, Object> plannerConfig = Manifests.yaml()
                .load((String) at(find(docs, "ConfigMap", "restore-planner"), "data", "restore-planner.yml"));
        assertThat((String) at(plannerConfig, "planner", "aws", "accounts", "1", "role-arn"))
                .isEqualTo("arn:aws:iam::210987654321:role/dynarestore-restore");

        // and Prometheus Operator and Grafana get their objects, with the dashboard of docs/
        Map<String, Object> monitor = find(docs, "ServiceMonitor", "dynarestore-dynarestore");
        assertThat((String) at(monitor, "spec", "endpoints", "0", "path")).isEqualTo("/actuator/prometheus");
        assertThat((String) at(monitor, "metadata", "labels", "release")).isEqualTo("prometheus");
        String dashboard =
                at(find(docs, "ConfigMap", "dynarestore-dynarestore-dashboard"), "data", "dynarestore-dashboard.json");
        assertThat(dashboard.strip())
                .isEqualTo(Files.readString(Manifests.root().resolve("docs/grafana/dynarestore-dashboard.json"))
                        .strip());
    }

    @Test
    void refusesValuesThatBreakItsSchema() {
        assertThatThrownBy(() -> new Helm(CHART)
                        .template()
                        .withName("x")
                        .set("aws.defaultAccount", "12345")
                        .call())
                .hasMessageContaining("defaultAccount");
        assertThatThrownBy(() -> new Helm(CHART)
                        .template()
                        .withName("x")
                        .set("keda.itemWriter.maxReplicas", 0)
                        .call())
                .hasMessageContaining("maxReplicas");
        assertThatThrownBy(() -> new Helm(CHART)
                        .template()
                        .withName("x")
                        .set("alerts.emails[0]", "oncall at example")
                        .call())
                .hasMessageContaining("alerts");
    }
}
