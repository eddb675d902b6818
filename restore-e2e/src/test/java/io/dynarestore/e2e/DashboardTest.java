package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Grafana dashboard in docs/ charts only meters that the services register. */
class DashboardTest {

    static final Pattern DECLARED = Pattern.compile("\"(dynarestore(?:\\.[a-z]+)+)\"");
    static final Pattern USED = Pattern.compile("dynarestore_[a-z_]+");

    @Test
    void everyQueryOfTheDashboardNamesAMeterThatAServiceRegisters() throws Exception {
        // Given the meter names in the services' code, as Prometheus writes them
        Path root = RepoRoot.find();
        Set<String> declared = new HashSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(
                            p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/"))
                    .toList()) {
                Matcher m = DECLARED.matcher(Files.readString(f));
                while (m.find()) {
                    declared.add(m.group(1).replace('.', '_'));
                }
            }
        }

        // When the dashboard's queries are read
        JsonNode dashboard = JsonMapper.builder()
                .build()
                .readTree(Files.readString(root.resolve("docs/grafana/dynarestore-dashboard.json")));
        Set<String> used = new HashSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            assertThat(panel.get("targets")).as(panel.get("title").asString()).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                Matcher m = USED.matcher(target.get("expr").asString());
                while (m.find()) {
                    used.add(m.group());
                }
            }
        }

        // Then each is a declared meter plus one of Prometheus's suffixes
        assertThat(used)
                .isNotEmpty()
                .allSatisfy(name -> assertThat(declared)
                        .as(name)
                        .anyMatch(d -> name.equals(d)
                                || name.matches(Pattern.quote(d)
                                        + "(_total|_seconds_count|_seconds_sum|_seconds_max|_bytes_total)")));
    }
}
