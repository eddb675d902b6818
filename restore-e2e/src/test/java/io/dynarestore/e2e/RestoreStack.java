package io.dynarestore.e2e;

import io.dynarestore.api.ApiApplication;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.writer.WriterApplication;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole system on real components, for one test class: a Kafka broker (KRaft), dynalite,
 * S3Proxy, and restore-api, restore-planner and item-writer as Spring applications in this JVM
 * (or an item-writer as a separate process, for crash tests).
 */
final class RestoreStack implements AutoCloseable {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final String BUCKET = "vault";

    final KafkaBroker kafka;
    final Dynalite dynalite;
    final S3Server s3;
    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    ConfigurableApplicationContext api;

    private RestoreStack() {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        s3 = S3Server.start(BUCKET);
    }

    /** Infrastructure only; start the services with the methods below. */
    static RestoreStack infrastructure() {
        return new RestoreStack();
    }

    /** Infrastructure plus restore-api, restore-planner and one item-writer in this JVM. */
    static RestoreStack start() {
        var stack = new RestoreStack();
        stack.startPlanner();
        stack.startWriter();
        stack.startApi();
        return stack;
    }

    /** Command-line arguments pointing a service at this stack. */
    List<String> arguments() {
        return List.of(
                "--spring.profiles.active=local",
                "--server.port=0",
                "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "--DYNAMODB_ENDPOINT=" + dynalite.endpoint(),
                "--S3_ENDPOINT=" + s3.endpoint());
    }

    ConfigurableApplicationContext startPlanner(String... extra) {
        return run(PlannerApplication.builder(), extra);
    }

    ConfigurableApplicationContext startWriter(String... extra) {
        return run(WriterApplication.builder(), extra);
    }

    ConfigurableApplicationContext startApi() {
        api = run(ApiApplication.builder());
        return api;
    }

    private ConfigurableApplicationContext run(SpringApplicationBuilder builder, String... extra) {
        var args = new ArrayList<>(arguments());
        args.addAll(List.of(extra));
        ConfigurableApplicationContext context = builder.run(args.toArray(new String[0]));
        contexts.add(context);
        return context;
    }

    /** An item-writer as a separate JVM, so that a test can kill it with SIGKILL. */
    Process startWriterProcess(Path log, String... extra) throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", classpath, WriterApplication.class.getName()));
        command.addAll(arguments());
        command.addAll(List.of(extra));
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        return p;
    }

    URI apiUri(String path) {
        int port = ((WebServerApplicationContext) api).getWebServer().getPort();
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (int i = contexts.size() - 1; i >= 0; i--) {
            try {
                contexts.get(i).close();
            } catch (RuntimeException ignored) {
                // closing a test stack
            }
        }
        s3.close();
        dynalite.close();
        kafka.close();
    }

    static Path logDir() {
        return Path.of("target", "e2e-logs").toAbsolutePath();
    }
}
