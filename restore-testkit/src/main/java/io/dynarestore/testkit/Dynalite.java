package io.dynarestore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * A dynalite server (a real DynamoDB-API server from npm) in a child process. Table creation
 * and deletion are immediate unless asked otherwise; data is in memory unless a path is given.
 */
public final class Dynalite implements AutoCloseable {

    private final int port;
    private final Process process;
    private DynamoDbClient client;

    private Dynalite(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    public static Dynalite start() {
        return start(Ports.free(), null);
    }

    /** Starts dynalite on {@code port}, persisting under {@code dataDir} if it is not {@code null}. */
    public static Dynalite start(int port, Path dataDir) {
        Path root = RepoRoot.find();
        List<String> command = new ArrayList<>(List.of(
                "node",
                "--require",
                root.resolve("restore-testkit/src/main/node/dynalite-guard.js").toString(),
                root.resolve("node_modules/dynalite/cli.js").toString(),
                "--port",
                String.valueOf(port),
                "--createTableMs",
                "0",
                "--deleteTableMs",
                "0",
                "--updateTableMs",
                "0"));
        if (dataDir != null) {
            command.add("--path");
            command.add(dataDir.toString());
        }
        try {
            Path log = logFile(port);
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(
                            log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(log.toFile()))
                    .start();
            var dynalite = new Dynalite(port, p);
            Ports.awaitAccepting(port, Duration.ofSeconds(20), "dynalite");
            if (!p.isAlive()) {
                // something else answered on the port, and this server could not bind it
                throw new IllegalStateException(
                        "dynalite exited at start (exit " + p.exitValue() + ")" + (log == null ? "" : "; see " + log));
            }
            return dynalite;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start dynalite (is node installed?)", e);
        }
    }

    /** Where the server's output goes: {@code target/} of the working directory when there is one (tests). */
    private static Path logFile(int port) {
        Path target = Path.of("target");
        return Files.isDirectory(target) ? target.resolve("dynalite-" + port + ".log") : null;
    }

    /** Whether the server process still runs. */
    public boolean isRunning() {
        return process.isAlive();
    }

    public int port() {
        return port;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public Process process() {
        return process;
    }

    /** A client of this server (any credentials are accepted). */
    public synchronized DynamoDbClient client() {
        if (client == null) {
            client = client(endpoint());
        }
        return client;
    }

    /**
     * Creates table {@code name} keyed as {@code shape}'s items are (its partition key, and its sort
     * key when it has one), with what {@code settings} adds (billing mode, throughput, a stream), and
     * waits until it is ACTIVE.
     */
    public static void createTable(
            DynamoDbClient dynamo,
            String name,
            RandomItems.Shape shape,
            Consumer<CreateTableRequest.Builder> settings) {
        dynamo.createTable(b -> {
            b.tableName(name);
            if (shape.sortKey() == null) {
                b.attributeDefinitions(
                                d -> d.attributeName(shape.partitionKey()).attributeType(shape.partitionType()))
                        .keySchema(k -> k.attributeName(shape.partitionKey()).keyType("HASH"));
            } else {
                b.attributeDefinitions(
                                d -> d.attributeName(shape.partitionKey()).attributeType(shape.partitionType()),
                                d -> d.attributeName(shape.sortKey()).attributeType(shape.sortType()))
                        .keySchema(
                                k -> k.attributeName(shape.partitionKey()).keyType("HASH"),
                                k -> k.attributeName(shape.sortKey()).keyType("RANGE"));
            }
            settings.accept(b);
        });
        awaitActive(dynamo, name);
    }

    /**
     * Waits until a table just created is ACTIVE: dynalite answers CreateTable with CREATING and
     * refuses writes until the next tick, even with {@code --createTableMs 0}.
     */
    public static void awaitActive(DynamoDbClient dynamo, String table) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (dynamo.describeTable(b -> b.tableName(table)).table().tableStatus() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("table " + table + " did not become ACTIVE within 10 s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(32))
                .build();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
