package io.dynarestore.e2e.deploy;

import io.dynarestore.testkit.RepoRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** Reads the deployment files of the repository (compose, chart, Spring configuration) as plain maps. */
final class Manifests {

    /** The five services: module name, configuration prefix, port. */
    record Service(String name, String prefix, int port) {}

    static final List<Service> SERVICES = List.of(
            new Service("restore-api", "api", 8080),
            new Service("restore-planner", "planner", 8081),
            new Service("item-writer", "writer", 8082),
            new Service("exporter", "exporter", 8083),
            new Service("notifier", "notifier", 8084),
            new Service("protector", "protector", 8085));

    private Manifests() {}

    static Path root() {
        return RepoRoot.find();
    }

    static Yaml yaml() {
        var options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        return new Yaml(options);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> file(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return (Map<String, Object>) yaml().load(in);
        }
    }

    /** Every document of a multi-document YAML text, empty ones left out. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> documents(String text) {
        var out = new ArrayList<Map<String, Object>>();
        for (Object doc : yaml().loadAll(text)) {
            if (doc instanceof Map<?, ?> m) {
                out.add((Map<String, Object>) m);
            }
        }
        return out;
    }

    /** The first document of a service's own configuration file (its defaults), from the classpath. */
    static String springConfig(String service) throws IOException {
        try (InputStream in = Manifests.class.getResourceAsStream("/" + service + ".yml")) {
            if (in == null) {
                throw new IllegalStateException(service + ".yml is not on the test classpath");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** The environment variables a configuration file reads ({@code ${NAME:default}}). */
    static List<String> placeholders(String config) {
        var names = new ArrayList<String>();
        Matcher m = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)[:}]").matcher(config);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The default of {@code ${NAME:default}} in a configuration file. */
    static String placeholderDefault(String config, String name) {
        Matcher m = Pattern.compile("\\$\\{" + name + ":([^}]*)}").matcher(config);
        if (!m.find()) {
            throw new AssertionError("no ${" + name + ":...} in the configuration");
        }
        return m.group(1);
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            if (current instanceof Map<?, ?> m) {
                current = m.get(key);
            } else if (current instanceof List<?> l) {
                current = l.get(Integer.parseInt(key));
            } else {
                return null;
            }
        }
        return (T) current;
    }
}
