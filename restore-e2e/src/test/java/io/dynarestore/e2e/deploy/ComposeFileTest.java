package io.dynarestore.e2e.deploy;

import static io.dynarestore.e2e.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml: valid for Compose (Debian's docker-compose 1.29 where installed, as .ci/run
 * does), and each service started only once what it needs is healthy, with a healthcheck and a
 * memory limit.
 */
class ComposeFileTest {

    static final Path COMPOSE = Manifests.root().resolve("docker-compose.yml");

    @Test
    void isValidForDockerCompose() throws Exception {
        Assumptions.assumeTrue(onPath("docker-compose"), "docker-compose is not installed here");
        for (List<String> profiles : List.of(List.<String>of(), List.of("--profile", "monitoring"))) {
            var command = new java.util.ArrayList<>(List.of("docker-compose", "-f", COMPOSE.toString()));
            command.addAll(profiles);
            command.addAll(List.of("config", "-q"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue())
                    .as(new String(p.getInputStream().readAllBytes()))
                    .isZero();
        }
    }

    @Test
    void startsEachServiceAfterWhatItNeedsWithAHealthcheckAndAMemoryLimit() throws Exception {
        Map<String, Object> compose = Manifests.file(COMPOSE);
        for (var service : Manifests.SERVICES) {
            Map<String, Object> s = at(compose, "services", service.name());
            assertThat(s).as(service.name()).isNotNull();
            assertThat((String) s.get("image")).startsWith("dynarestore/" + service.name() + ":");
            assertThat((List<String>) at(s, "healthcheck", "test"))
                    .anyMatch(t -> t.contains("/actuator/health/readiness"));
            assertThat((String) s.get("mem_limit")).isNotBlank();
            assertThat((String) at(s, "depends_on", "kafka-init", "condition"))
                    .isEqualTo("service_completed_successfully");
            assertThat((String) at(s, "depends_on", "s3-init", "condition"))
                    .isEqualTo("service_completed_successfully");
        }
        assertThat((String) at(compose, "services", "kafka", "image")).startsWith("apache/kafka:");
        assertThat((String) at(compose, "services", "kafka-init", "depends_on", "kafka", "condition"))
                .isEqualTo("service_healthy");
        assertThat((List<String>) at(compose, "services", "grafana", "profiles"))
                .containsExactly("monitoring");
    }

    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (java.nio.file.Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
