package io.dynarestore.local;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaProcess;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.Processes;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.ServiceJars;
import io.dynarestore.testkit.StreamsEndpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The local default: everything on this machine with no Docker. Starts a Kafka broker (KRaft)
 * process, dynalite behind the testkit's DynamoDB Streams endpoint (on the DynamoDB port, so that
 * every write made there is in its table's stream), S3Proxy (bucket {@code vault}, path-style, any
 * credentials), an SMTP server, the demo data, and the six services as processes from their
 * runnable jars; protects the demo table; stops them all on Ctrl-C.
 */
public final class LocalStack implements AutoCloseable {

    static final String BUCKET = "vault";
    static final List<String> SERVICES =
            List.of("restore-planner", "item-writer", "exporter", "notifier", "protector", "restore-api");
    /** The demo table's policy: hourly SCAN backups kept a week, its stream flushed every minute. */
    static final String DEMO_POLICY =
            "{\"backups\": {\"method\": \"SCAN\", \"every\": \"PT1H\", \"retention\": \"P7D\"}, "
                    + "\"changeLog\": {\"method\": \"STREAMS\", \"flushEvery\": \"PT1M\"}}";

    private final LocalSettings settings;
    private final String classpath;
    private final Path data;
    private final Path logs;
    private final List<Process> services = new ArrayList<>();
    private Process kafka;
    private Dynalite dynalite;
    private StreamsEndpoint streams;
    private S3Server s3;
    private GreenMail mail;
    private List<String> backups = List.of();

    /** @param classpath the classpath of the Kafka broker process (this module's runtime classpath) */
    LocalStack(LocalSettings settings, String classpath) throws IOException {
        this.settings = settings;
        this.classpath = classpath;
        this.data = settings.inMemory() ? Files.createTempDirectory("dynarestore-local") : settings.data();
        this.logs = data.resolve("logs");
        Files.createDirectories(logs);
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("dynarestore.repo.root", "."))
                .toAbsolutePath()
                .normalize();
        LocalSettings settings;
        try {
            settings = LocalSettings.parse(root, args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        var stack = new LocalStack(settings, System.getProperty("java.class.path"));
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("\nStopping the local stack...");
            stack.close();
            stopped.countDown();
        }));
        try {
            stack.start();
        } catch (Exception e) {
            System.err.println("The local stack could not start: " + e.getMessage());
            System.exit(1);
        }
        System.out.println(stack.banner());
        stopped.await();
    }

    void start() throws Exception {
        checkPortsFree();
        step("Kafka (KRaft) on 127.0.0.1:" + settings.port("kafka"));
        kafka = KafkaProcess.start(
                data.resolve("kafka"),
                settings.port("kafka"),
                settings.port("kafka-controller"),
                classpath,
                logs.resolve("kafka.log"));
        createTopics();
        step("dynalite, with DynamoDB Streams in front of it, on 127.0.0.1:" + settings.port("dynamodb"));
        dynalite = Dynalite.start(Ports.free(), settings.inMemory() ? null : dir("dynalite"));
        streams = StreamsEndpoint.inFrontOf(dynalite.endpoint(), settings.port("dynamodb"));
        step("S3Proxy on 127.0.0.1:" + settings.port("s3"));
        s3 = S3Server.start(settings.port("s3"), settings.inMemory() ? null : dir("s3"), BUCKET, false);
        streams.exportsTo(s3.client()); // ExportTableToPointInTime writes into the vault's bucket, as on AWS
        step("SMTP on 127.0.0.1:" + settings.port("smtp"));
        mail = new GreenMail(new ServerSetup[] {
            new ServerSetup(settings.port("smtp"), "127.0.0.1", ServerSetup.PROTOCOL_SMTP),
            new ServerSetup(settings.port("imap"), "127.0.0.1", ServerSetup.PROTOCOL_IMAP)
        });
        mail.start();
        if (settings.demo()) {
            step("demo table 'orders' and its backups");
            backups = DemoData.seed(dynalite.client(), s3.client(), new VaultLayout(BUCKET, ""));
            streams.enableStream("orders");
        }
        for (String service : SERVICES) {
            step(service + " on port " + settings.port(ServiceJars.settingsPrefix(service)));
            services.add(startService(service));
        }
        for (String service : SERVICES) {
            awaitReady(service, settings.port(ServiceJars.settingsPrefix(service)));
        }
        if (settings.demo()) {
            step("protection of 'orders': SCAN backups every hour, its stream flushed every minute");
            protect("orders", DEMO_POLICY);
        }
    }

    /** Sets a table's protection policy through restore-api, as a person would. */
    void protect(String table, String policy) throws Exception {
        var response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + settings.port("api") + "/tables/"
                                        + table + "/protection"))
                                .header(LocalApi.HEADER, LocalApi.KEY)
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString(policy))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("could not protect " + table + ": " + response.body());
        }
    }

    private void step(String what) {
        System.out.println("  starting " + what);
    }

    private Path dir(String name) throws IOException {
        return Files.createDirectories(data.resolve(name));
    }

    private void checkPortsFree() {
        for (var e : settings.ports().entrySet()) {
            if (Ports.accepting(e.getValue())) {
                throw new IllegalStateException("port " + e.getValue() + " (" + e.getKey() + ") is in use: is "
                        + "another restore-local running? Stop it, or pass --" + e.getKey() + "-port=N");
            }
        }
    }

    private void createTopics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            var existing = admin.listTopics().names().get();
            var missing = TopicDefinitions.local().newTopics().stream()
                    .filter(t -> !existing.contains(t.name()))
                    .toList();
            admin.createTopics(missing).all().get();
        }
    }

    private String bootstrap() {
        return "127.0.0.1:" + settings.port("kafka");
    }

    private Process startService(String service) throws IOException {
        Path jar = ServiceJars.runnable(settings.root().resolve(service));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var builder = new ProcessBuilder(
                        java,
                        "-Xmx384m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-jar",
                        jar.toString(),
                        "--spring.profiles.active=local",
                        "--server.port=" + settings.port(ServiceJars.settingsPrefix(service)))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(service + ".log").toFile()));
        builder.environment().put("KAFKA_BOOTSTRAP_SERVERS", bootstrap());
        builder.environment().put("DYNAMODB_ENDPOINT", "http://127.0.0.1:" + settings.port("dynamodb"));
        builder.environment().put("S3_ENDPOINT", "http://127.0.0.1:" + settings.port("s3"));
        builder.environment().put("SMTP_PORT", String.valueOf(settings.port("smtp")));
        builder.environment().put("PUBLIC_URL", "http://localhost:" + settings.port("api")); // links in mails
        return builder.start();
    }

    private void awaitReady(String service, int port) throws Exception {
        var client = HttpClient.newHttpClient();
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(2))
                .build();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            Process p = services.get(SERVICES.indexOf(service));
            if (!p.isAlive()) {
                throw new IllegalStateException(
                        service + " exited with " + p.exitValue() + "; see " + logs.resolve(service + ".log"));
            }
            try {
                if (client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(service + " did not become ready; see " + logs.resolve(service + ".log"));
    }

    /** Where each part listens. */
    Map<String, String> endpoints() {
        var m = new LinkedHashMap<String, String>();
        m.put("api", "http://localhost:" + settings.port("api"));
        m.put("kafka", "localhost:" + settings.port("kafka"));
        m.put("dynamodb", "http://localhost:" + settings.port("dynamodb"));
        m.put("s3", "http://localhost:" + settings.port("s3"));
        m.put("smtp", "localhost:" + settings.port("smtp"));
        return m;
    }

    List<String> backups() {
        return backups;
    }

    String banner() {
        var e = endpoints();
        String backup = backups.isEmpty() ? "<backupId>" : backups.get(backups.size() - 1);
        var sb = new StringBuilder();
        sb.append("""

                dynarestore is running locally.

                  REST API     %s   (OpenAPI: %s/swagger-ui.html; API key: header X-Api-Key: dynarestore-local-key)
                  Kafka        %s        (KRaft; topics restore.requests, restore.status, ...)
                  DynamoDB     %s   (dynalite with DynamoDB Streams; any credentials)
                  S3 vault     %s   (bucket "vault", path-style, any credentials)
                  SMTP         %s        (IMAP on port %d)
                  Logs         %s
                """.formatted(
                        e.get("api"),
                        e.get("api"),
                        e.get("kafka"),
                        e.get("dynamodb"),
                        e.get("s3"),
                        e.get("smtp"),
                        settings.port("imap"),
                        logs));
        if (!backups.isEmpty()) {
            sb.append(demo(e));
        }
        sb.append("""

                Restore the latest backup into a new table with curl (the API wants the key):
                  KEY='X-Api-Key: dynarestore-local-key'
                  curl -i -X POST %1$s/restores -H "$KEY" -H 'Content-Type: application/json' \\
                    -d '{"source":{"table":"orders","backupId":"%2$s"},"destination":{"type":"NEW_TABLE","tableName":"orders-restored"}}'
                  curl -H "$KEY" %1$s/restores/<restoreId from the Location header>
                  curl -H "$KEY" %1$s/tables/orders/backups
                  curl -H "$KEY" %1$s/tables/orders/pitr-windows

                ... or to the latest restorable second (or any second of a window):
                  curl -i -X POST %1$s/restores -H "$KEY" -H 'Content-Type: application/json' \\
                    -d '{"source":{"table":"orders","pointInTime":"latest"},"destination":{"type":"NEW_TABLE","tableName":"orders-latest"}}'

                ... or with a plain Kafka client (kcat):
                  echo '{"restoreId":"demo-1","source":{"table":"orders","backupId":"%2$s"},"destination":{"type":"NEW_TABLE","tableName":"orders-demo-1"}}' \\
                    | kcat -P -b %3$s -t restore.requests -k demo-1
                  kcat -C -b %3$s -t restore.status -o beginning -e -f '%%k %%s\\n'

                Press Ctrl-C to stop everything.
                """.formatted(e.get("api"), backup, e.get("kafka")));
        return sb.toString();
    }

    /** The demo table's backups and history, and how to change it and restore it to the second before. */
    private String demo(Map<String, String> e) {
        var sb = new StringBuilder();
        sb.append("\nDemo table \"orders\" (account 000000000000, us-east-1); backups (oldest first, the first "
                + "has expired):\n");
        backups.forEach(b -> sb.append("  ").append(b).append('\n'));
        sb.append("Point-in-time history: the 2 hours after the second backup, and the last 2 hours "
                + "(GET /tables/orders/pitr-windows).\n");
        sb.append("""

                "orders" is protected (GET /tables/orders/protection): a backup every hour, and its
                stream captured every minute. Change it, wait a minute, restore it to the second before:
                  aws dynamodb put-item --endpoint-url %1$s --table-name orders \\
                    --item '{"customerId":{"S":"c#1"},"orderId":{"S":"o#1"},"status":{"S":"BROKEN"}}'
                  curl -H "X-Api-Key: dynarestore-local-key" %2$s/tables/orders/pitr-windows
                """.formatted(e.get("dynamodb"), e.get("api")));
        return sb.toString();
    }

    @Override
    public void close() {
        for (Process p : services) {
            p.destroy();
        }
        for (Process p : services) {
            Processes.await(p);
        }
        Processes.stop(kafka);
        Processes.closeEach(streams, dynalite, s3);
        if (mail != null) {
            mail.stop();
        }
    }
}
