package io.dynarestore.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ports and places of the local stack. Every port can be changed with {@code --<name>-port=N}
 * (or the environment variable {@code <NAME>_PORT}); data lives under {@code --data=DIR}
 * ({@code ./data} by default) unless {@code --in-memory} is given.
 */
record LocalSettings(Path root, Path data, boolean inMemory, Map<String, Integer> ports, boolean demo) {

    static final Map<String, Integer> DEFAULT_PORTS = defaults();

    private static Map<String, Integer> defaults() {
        var p = new LinkedHashMap<String, Integer>();
        p.put("kafka", 9092);
        p.put("kafka-controller", 9093);
        p.put("api", 8080);
        p.put("planner", 8081);
        p.put("writer", 8082);
        p.put("exporter", 8083);
        p.put("notifier", 8084);
        p.put("protector", 8085);
        p.put("dynamodb", 8000);
        p.put("s3", 9000);
        p.put("smtp", 3025);
        p.put("imap", 3143);
        return p;
    }

    int port(String name) {
        return ports.get(name);
    }

    static LocalSettings parse(Path root, String[] args, Map<String, String> env) {
        var ports = new LinkedHashMap<>(DEFAULT_PORTS);
        ports.replaceAll((name, port) -> {
            String fromEnv = env.get(name.toUpperCase().replace('-', '_') + "_PORT");
            return fromEnv != null ? Integer.parseInt(fromEnv) : port;
        });
        Path data = root.resolve("data");
        boolean inMemory = false;
        boolean demo = true;
        List<String> unknown = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--in-memory")) {
                inMemory = true;
            } else if (arg.equals("--no-demo")) {
                demo = false;
            } else if (arg.startsWith("--data=")) {
                data = Path.of(arg.substring("--data=".length())).toAbsolutePath();
            } else if (arg.startsWith("--") && arg.contains("-port=")) {
                String name = arg.substring(2, arg.indexOf("-port="));
                if (!ports.containsKey(name)) {
                    unknown.add(arg);
                } else {
                    ports.put(name, Integer.parseInt(arg.substring(arg.indexOf('=') + 1)));
                }
            } else if (!arg.isBlank()) {
                unknown.add(arg);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown options " + unknown + "; known: --in-memory, --no-demo, "
                    + "--data=DIR, and --<name>-port=N for " + ports.keySet());
        }
        return new LocalSettings(root, data, inMemory, ports, demo);
    }
}
