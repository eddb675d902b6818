package io.dynarestore.chaos;

import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.ChildJvm;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaProcess;
import io.dynarestore.testkit.Ports;
import io.dynarestore.testkit.Processes;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.ServiceJars;
import io.dynarestore.testkit.StreamsEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Every part of the system as its own OS process, so that faults are real: one Kafka broker
 * (KRaft), dynalite, S3Proxy, and restore-api, restore-planner, two item-writers, the exporter
 * and two protectors started from their runnable jars with the {@code local} profile. The services
 * reach DynamoDB through a {@link CapacityProxy} that enforces provisioned write capacity, so
 * restores are paced and throttled as on AWS and last long enough to be hit, and behind it a
 * {@link StreamsEndpoint} that records each protected table's stream.
 */
final class ChaosStack implements AutoCloseable {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final String BUCKET = "vault";
    /** Each service, how many replicas run, and the Spring prefix of its settings. */
    static final Map<String, Integer> REPLICAS = new LinkedHashMap<>();

    static {
        REPLICAS.put("restore-planner", 1);
        REPLICAS.put("item-writer", 2);
        REPLICAS.put("exporter", 1);
        REPLICAS.put("restore-api", 1);
        REPLICAS.put("protector", 2);
    }

    final Path dir;
    final Path logs;
    private final String classpath;
    private final int kafkaPort = Ports.free();
    private final int controllerPort = Ports.free();
    private final int s3Port = Ports.free();
    private final int apiPort = Ports.free();
    private final Map<String, List<Process>> services = new LinkedHashMap<>();
    private final AtomicInteger launches = new AtomicInteger();
    private Process broker;
    private Dynalite dynalite;
    private Process s3;
    private CapacityProxy proxy;
    private StreamsEndpoint streams;
    private S3Client s3Client;

    private ChaosStack(Path dir, String classpath) throws IOException {
        this.dir = dir;
        this.logs = Files.createDirectories(dir.resolve("logs"));
        this.classpath = classpath;
    }

    /** Starts everything; {@code classpath} must hold this module and its dependencies (for the broker and S3). */
    static ChaosStack start(Path dir, String classpath) throws Exception {
        var stack = new ChaosStack(dir, classpath);
        try {
            stack.startAll();
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    private void startAll() throws Exception {
        startBroker();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            admin.createTopics(TopicDefinitions.local().newTopics()).all().get();
        }
        dynalite = Dynalite.start(Ports.free(), null);
        // writes made through the proxy reach each table's stream, which the protectors capture
        streams = StreamsEndpoint.inFrontOf(dynalite.endpoint());
        proxy = CapacityProxy.inFrontOf(streams.endpoint()).burstSeconds(2);
        startS3();
        s3Client = S3Server.client(URI.create("http://127.0.0.1:" + s3Port));
        for (var e : REPLICAS.entrySet()) {
            for (int i = 0; i < e.getValue(); i++) {
                startService(e.getKey());
            }
        }
        for (String service : REPLICAS.keySet()) {
            awaitReady(service);
        }
    }

    private void startBroker() throws IOException, InterruptedException {
        broker = KafkaProcess.start(
                dir.resolve("kafka"), kafkaPort, controllerPort, classpath, logs.resolve("kafka.log"));
    }

    private void startS3() throws IOException {
        Path data = Files.createDirectories(dir.resolve("s3"));
        var command = new ArrayList<>(ChildJvm.command("256m"));
        command.addAll(
                List.of("-cp", classpath, S3Main.class.getName(), String.valueOf(s3Port), data.toString(), BUCKET));
        s3 = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(
                        ProcessBuilder.Redirect.appendTo(logs.resolve("s3.log").toFile()))
                .start();
        Ports.awaitAccepting(s3Port, Duration.ofSeconds(60), "S3Proxy (log: " + logs.resolve("s3.log") + ")");
    }

    String bootstrap() {
        return "127.0.0.1:" + kafkaPort;
    }

    URI api(String path) {
        return URI.create("http://127.0.0.1:" + apiPort + path);
    }

    S3Client s3() {
        return s3Client;
    }

    /** DynamoDB as it is, not through the capacity proxy (for fixtures and for checking). */
    DynamoDbClient dynamo() {
        return dynalite.client();
    }

    CapacityProxy proxy() {
        return proxy;
    }

    /** DynamoDB as the services reach it: through the capacity proxy and the Streams endpoint. */
    DynamoDbClient dynamoAsServices() {
        return Dynalite.client(proxy.endpoint());
    }

    /** Starts one more replica of {@code service}; it logs to {@code logs/<service>-<n>.log}. */
    Process startService(String service) throws IOException {
        String prefix = ServiceJars.settingsPrefix(service);
        var command = new ArrayList<>(ChildJvm.service(service, "320m"));
        command.addAll(List.of(
                "--spring.profiles.active=local", "--server.port=" + (service.equals("restore-api") ? apiPort : 0)));
        command.addAll(ChildJvm.SHORT_KAFKA_SESSION);
        if (!service.equals("exporter")) {
            String region = "--" + prefix + ".aws.accounts[0].regions." + REGION + ".";
            command.addAll(List.of(
                    "--" + prefix + ".aws.accounts[0].id=" + ACCOUNT,
                    region + "dynamodb-endpoint=" + proxy.endpoint(),
                    region + "import-table=false",
                    region + "native-backups=false",
                    region + "enforced-capacity=true"));
        }
        var builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(service + "-" + launches.incrementAndGet() + ".log")
                                .toFile()));
        builder.environment().put("KAFKA_BOOTSTRAP_SERVERS", bootstrap());
        builder.environment().put("DYNAMODB_ENDPOINT", proxy.endpoint().toString());
        builder.environment().put("S3_ENDPOINT", "http://127.0.0.1:" + s3Port);
        Process p = builder.start();
        services.computeIfAbsent(service, k -> new ArrayList<>()).add(p);
        return p;
    }

    private void awaitReady(String service) throws Exception {
        if (!service.equals("restore-api")) {
            return; // their ports are random; Kafka group membership shows in the restores themselves
        }
        var client = HttpClient.newHttpClient();
        var request = HttpRequest.newBuilder(api("/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(2))
                .build();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            try {
                if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(service + " did not become ready; see " + logs);
    }

    /** SIGKILL to one replica of {@code service}, then a new replica in its place. */
    void killAndReplace(String service) throws Exception {
        List<Process> live = services.get(service);
        Process victim = live.remove(0);
        victim.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        startService(service);
    }

    /**
     * SIGKILL to replica {@code replica} of {@code service}, then that replica started again in its place
     * (as an orchestrator restarts a pod), so that the same replica can be killed again.
     */
    void killAndRestart(String service, int replica) throws Exception {
        List<Process> live = services.get(service);
        live.get(replica).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        startService(service);
        live.set(replica, live.remove(live.size() - 1));
    }

    /** Stops the broker (SIGTERM, as an orchestrator does) and starts it again on the same log directory. */
    void restartBroker() throws Exception {
        broker.destroy();
        if (!broker.waitFor(60, TimeUnit.SECONDS)) {
            broker.destroyForcibly().waitFor();
        }
        startBroker();
    }

    /** Freezes dynalite (all of DynamoDB) with SIGSTOP for {@code pause}, then lets it go on. */
    void pauseDynamo(Duration pause) throws Exception {
        freeze(dynalite.process(), pause);
    }

    /** Freezes S3Proxy with SIGSTOP for {@code pause}, then lets it go on. */
    void pauseS3(Duration pause) throws Exception {
        freeze(s3, pause);
    }

    private static void freeze(Process process, Duration pause) throws Exception {
        signal("-STOP", process);
        try {
            Thread.sleep(pause.toMillis());
        } finally {
            signal("-CONT", process);
        }
    }

    private static void signal(String signal, Process process) throws Exception {
        int rc = new ProcessBuilder("kill", signal, String.valueOf(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
        if (rc != 0) {
            throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed with " + rc);
        }
    }

    /** Services that died by themselves (not killed by the driver): a crash is a finding. */
    List<String> crashed() {
        var crashed = new ArrayList<String>();
        services.forEach((service, list) -> list.stream()
                .filter(p -> !p.isAlive())
                .forEach(p -> crashed.add(service + " (pid " + p.pid() + ", exit " + p.exitValue() + ")")));
        return crashed;
    }

    @Override
    public void close() {
        services.values().forEach(list -> list.forEach(Process::destroy));
        services.values().forEach(list -> list.forEach(Processes::await));
        Processes.closeEach(s3Client);
        Processes.stop(s3);
        Processes.closeEach(proxy, streams, dynalite);
        Processes.stop(broker);
    }

    static void deleteQuietly(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
