package io.dynarestore.e2e.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration table of each service's README is the service's configuration metadata, which
 * the build generates from its {@code @ConfigurationProperties} records: the same keys, the same
 * defaults, and a description for each.
 */
class ConfigurationDocsTest {

    private static final Pattern ROW =
            Pattern.compile("^\\| `([^`]+)` \\| (`[^`]*`)? *\\| (.*) \\|$", Pattern.MULTILINE);

    @ParameterizedTest(name = "{0} ({1})")
    @CsvSource({
        "restore-api, api",
        "restore-planner, planner",
        "item-writer, writer",
        "exporter, exporter",
        "notifier, notifier",
        "protector, protector"
    })
    void theReadmeTablesEveryKeyOfTheServiceWithItsDefault(String module, String prefix) throws IOException {
        // Given the keys the build found in the service's properties records
        Map<String, String> metadata = metadata(prefix);
        assertThat(metadata).as("configuration metadata of %s", module).hasSizeGreaterThan(3);

        // and the rows of the README's configuration table
        String readme = Files.readString(RepoRoot.find().resolve(module).resolve("README.md"));
        int section = readme.indexOf("\n## Configuration\n");
        assertThat(section)
                .as("%s/README.md has a Configuration section", module)
                .isPositive();
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher row = ROW.matcher(readme.substring(section));
        while (row.find()) {
            assertThat(row.group(3).strip()).as("what %s sets", row.group(1)).isNotEmpty();
            documented.put(
                    row.group(1), row.group(2) == null ? "" : row.group(2).replace("`", ""));
        }

        // Then both name the same keys with the same defaults
        assertThat(documented.keySet())
                .as(
                        "keys in %s/README.md (run the build, then list target/classes/META-INF/"
                                + "spring-configuration-metadata.json)",
                        module)
                .containsExactlyInAnyOrderElementsOf(metadata.keySet());
        assertThat(documented).as("defaults in %s/README.md", module).isEqualTo(metadata);
    }

    /** The service's properties and their defaults ("" where none), from every metadata file on the class path. */
    private static Map<String, String> metadata(String prefix) throws IOException {
        var mapper = JsonMapper.builder().build();
        Map<String, String> properties = new LinkedHashMap<>();
        for (URL url : Collections.list(ConfigurationDocsTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            JsonNode root;
            try (InputStream in = url.openStream()) {
                root = mapper.readTree(in);
            }
            for (JsonNode p : root.path("properties")) {
                String name = p.path("name").asString();
                if (name.startsWith(prefix + ".")
                        && p.path("sourceType").asString("").startsWith("io.dynarestore.")) {
                    properties.put(name, defaultOf(p.get("defaultValue")));
                }
            }
        }
        return properties;
    }

    private static String defaultOf(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isArray()) {
            var items = new ArrayList<String>();
            value.forEach(v -> items.add(v.asString()));
            return items.stream().collect(Collectors.joining(","));
        }
        return value.asString();
    }
}
