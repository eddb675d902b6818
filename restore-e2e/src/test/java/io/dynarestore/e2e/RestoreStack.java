package io.dynarestore.e2e;

import io.dynarestore.api.ApiApplication;
import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.planner.PlannerApplication;
import io.dynarestore.testkit.ChildJvm;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.TopicRecorder;
import io.dynarestore.writer.WriterApplication;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
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
    S3Server s3;
    private final Path s3Dir;
    private int s3Port;
    // the shared stack is used by several classes at once, which start and stop replicas on it
    private final List<ConfigurableApplicationContext> contexts = new CopyOnWriteArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    ConfigurableApplicationContext api;
    /** Where the services reach DynamoDB: dynalite, or a proxy in front of it. */
    URI dynamoEndpoint;
    /** Settings every service gets, as {@code aws.*} keys under each service's own prefix. */
    private final List<String> awsSettings = new ArrayList<>();

    private RestoreStack(Path s3Dir) {
        kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
        dynalite = Dynalite.start();
        this.s3Dir = s3Dir;
        s3 = s3Dir == null
                ? S3Server.start(BUCKET)
                : S3Server.start(io.dynarestore.testkit.Ports.free(), s3Dir, BUCKET, true);
        s3Port = s3.port();
        dynamoEndpoint = dynalite.endpoint();
    }

    private RestoreStack() {
        this(null);
    }

    /** Infrastructure with S3 kept on disk under {@code dir}, so that S3 can be stopped and started again. */
    static RestoreStack infrastructureWithDurableS3(Path dir) {
        return new RestoreStack(dir);
    }

    /**
     * Sends every service's DynamoDB calls through {@code proxy}, registered as an endpoint that
     * enforces provisioned capacity (dynalite alone does not, so writers would budget it as on-demand).
     */
    RestoreStack throughCapacityProxy(io.dynarestore.testkit.CapacityProxy proxy) {
        dynamoEndpoint = proxy.endpoint();
        return aws(
                "aws.accounts[0].id=" + ACCOUNT,
                "aws.accounts[0].regions." + REGION + ".dynamodb-endpoint=" + proxy.endpoint(),
                "aws.accounts[0].regions." + REGION + ".import-table=false",
                "aws.accounts[0].regions." + REGION + ".native-backups=false",
                "aws.accounts[0].regions." + REGION + ".enforced-capacity=true");
    }

    /**
     * Sends every service's DynamoDB and DynamoDB Streams calls through {@code endpoint}, which
     * records the writes made through it in each table's stream.
     */
    RestoreStack throughStreamsEndpoint(io.dynarestore.testkit.StreamsEndpoint endpoint) {
        dynamoEndpoint = endpoint.endpoint();
        return this;
    }

    ConfigurableApplicationContext startProtector(String... extra) {
        return run(io.dynarestore.protector.ProtectorApplication.builder(), extra);
    }

    /** Stops S3 (the services see connections refused) until {@link #startS3Again()}. */
    void stopS3() {
        s3.close();
    }

    void startS3Again() {
        s3 = S3Server.start(s3Port, s3Dir, BUCKET, true);
    }

    /**
     * Gives every service these {@code aws.} settings (for example {@code aws.accounts[1].id=...}),
     * under restore-api's, restore-planner's and item-writer's prefixes. A list set this way
     * replaces the configured list, so give all of its elements.
     */
    RestoreStack aws(String... settings) {
        for (String setting : settings) {
            for (String prefix : List.of("api", "planner", "writer", "protector")) {
                awsSettings.add("--" + prefix + "." + setting);
            }
        }
        return this;
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
        var args = new ArrayList<>(List.of(
                "--spring.profiles.active=local",
                "--server.port=0",
                "--KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "--DYNAMODB_ENDPOINT=" + dynamoEndpoint,
                "--S3_ENDPOINT=" + s3.endpoint()));
        args.addAll(awsSettings);
        return args;
    }

    ConfigurableApplicationContext startPlanner(String... extra) {
        return run(PlannerApplication.builder(), extra);
    }

    ConfigurableApplicationContext startWriter(String... extra) {
        return run(WriterApplication.builder(), extra);
    }

    /** An item-writer with a fault installed before it starts (a test's decorator of one of its beans). */
    ConfigurableApplicationContext startWriter(
            ApplicationContextInitializer<ConfigurableApplicationContext> fault, String... extra) {
        return run(WriterApplication.builder().initializers(fault), extra);
    }

    ConfigurableApplicationContext startExporter(String... extra) {
        return run(io.dynarestore.exporter.ExporterApplication.builder(), extra);
    }

    ConfigurableApplicationContext startApi(String... extra) {
        api = run(ApiApplication.builder(), extra);
        return api;
    }

    /** Another restore-api replica; {@link #apiUri} keeps naming the first. */
    ConfigurableApplicationContext startApiReplica(String... extra) {
        return run(ApiApplication.builder(), extra);
    }

    /** A notifier that mails through the SMTP server on {@code smtpPort} and links to the current restore-api. */
    ConfigurableApplicationContext startNotifier(int smtpPort, String... extra) {
        var args = new ArrayList<>(List.of(
                "--spring.mail.host=127.0.0.1",
                "--spring.mail.port=" + smtpPort,
                "--notifier.public-url=" + apiUri("")));
        args.addAll(List.of(extra));
        return run(io.dynarestore.notifier.NotifierApplication.builder(), args.toArray(new String[0]));
    }

    /** The service of this stack whose web server is at {@code uri}. */
    ConfigurableApplicationContext contextAt(URI uri) {
        return contexts.stream()
                .filter(c -> c instanceof WebServerApplicationContext w
                        && w.getWebServer().getPort() == uri.getPort())
                .findFirst()
                .orElseThrow();
    }

    /** Stops one service of this stack (to start it again, or to stop a replica). */
    void stop(ConfigurableApplicationContext context) {
        Applications.close(context);
        contexts.remove(context);
    }

    /**
     * Spring Security's auto-configuration, which restore-api brings onto this JVM's shared classpath;
     * the other services do not have it in their own jars, so they run here without it too.
     */
    private static final String NO_SECURITY = "--spring.autoconfigure.exclude="
            + "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet."
            + "OAuth2ResourceServerAutoConfiguration";

    private ConfigurableApplicationContext run(SpringApplicationBuilder builder, String... extra) {
        var args = new ArrayList<>(arguments());
        if (!builder.application().getAllSources().contains(ApiApplication.class)) {
            args.add(NO_SECURITY);
        }
        args.addAll(List.of(extra));
        ConfigurableApplicationContext context = Applications.run(builder, args.toArray(new String[0]));
        contexts.add(context);
        return context;
    }

    /** An item-writer as a separate JVM, so that a test can kill it with SIGKILL. */
    Process startWriterProcess(Path log, String... extra) throws Exception {
        return startProcess("item-writer", log, extra);
    }

    /** A restore-planner as a separate JVM, so that a test can kill it with SIGKILL. */
    Process startPlannerProcess(Path log, String... extra) throws Exception {
        return startProcess("restore-planner", log, extra);
    }

    /**
     * {@code service} from its own runnable jar, as it is deployed, not from this test's class path,
     * which holds every service's jars and loads them all; with the short Kafka session of a process
     * that is there to be killed.
     */
    private Process startProcess(String service, Path log, String... extra) throws Exception {
        var command = new ArrayList<>(ChildJvm.service(service, "512m"));
        command.addAll(arguments());
        command.addAll(ChildJvm.SHORT_KAFKA_SESSION);
        command.addAll(List.of(extra));
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(p);
        return p;
    }

    /** Posts a restore to restore-api, waits until it ends and asserts it COMPLETED; returns its id. */
    String restoreAndAwaitCompletion(String body) throws Exception {
        var response = Http.post(apiUri("/restores"), body);
        org.assertj.core.api.Assertions.assertThat(response.status())
                .as(response.body())
                .isEqualTo(202);
        String id = response.json().get("restoreId").asString();
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofMinutes(2))
                .pollInterval(java.time.Duration.ofMillis(200))
                .untilAsserted(() -> {
                    var r = Http.get(apiUri("/restores/" + id));
                    org.assertj.core.api.Assertions.assertThat(
                                    r.json().get("state").asString())
                            .as(r.body())
                            .isIn("COMPLETED", "FAILED", "REJECTED");
                });
        var r = Http.get(apiUri("/restores/" + id));
        org.assertj.core.api.Assertions.assertThat(r.json().get("state").asString())
                .as(r.body())
                .isEqualTo("COMPLETED");
        return id;
    }

    /** A producer of string keys and values, as an upstream system publishes requests and commands. */
    KafkaProducer<String, String> stringProducer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class));
    }

    /** {@code restore.status} followed from its beginning, as a dashboard reads it. */
    TopicRecorder followStatus() {
        return TopicRecorder.follow(kafka.bootstrapServers(), Topic.STATUS.topicName());
    }

    URI apiUri(String path) {
        return uri(api, path);
    }

    /** {@code path} on the web server of a service of this stack. */
    static URI uri(ConfigurableApplicationContext service, String path) {
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (int i = contexts.size() - 1; i >= 0; i--) {
            try {
                Applications.close(contexts.get(i));
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
