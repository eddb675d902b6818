package io.dynarestore.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker in KRaft mode (one node that is broker and controller) as its own JVM,
 * from the Maven jars of this module's classpath. Its log directory is formatted once.
 */
public final class KafkaProcess {

    private KafkaProcess() {}

    public static Process start(Path dir, int port, int controllerPort, String classpath, Path log)
            throws IOException, InterruptedException {
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        Path properties = writeProperties(dir, logs, port, controllerPort);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        if (!Files.exists(logs.resolve("meta.properties"))) {
            Process format = new ProcessBuilder(
                            java,
                            "-XX:TieredStopAtLevel=1",
                            "-cp",
                            classpath,
                            "kafka.tools.StorageTool",
                            "format",
                            "-t",
                            Uuid.randomUuid().toString(),
                            "-c",
                            properties.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (format.waitFor() != 0) {
                throw new IllegalStateException("formatting Kafka's log directory failed; see " + log);
            }
        }
        Process broker = new ProcessBuilder(List.of(
                        java,
                        "-Xmx512m",
                        // a broker on a laptop or CI machine: C1 and the serial collector start it with half the CPU
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                        "-cp",
                        classpath,
                        "kafka.Kafka",
                        properties.toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        Ports.awaitAccepting(port, Duration.ofSeconds(60), "Kafka (log: " + log + ")");
        return broker;
    }

    /** One node that is broker and controller, on {@code port} and {@code controllerPort}, logging into {@code logs}. */
    private static Path writeProperties(Path dir, Path logs, int port, int controllerPort) throws IOException {
        Path properties = dir.resolve("server.properties");
        Files.writeString(
                properties,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "log.dirs=" + logs,
                        "num.partitions=1",
                        "auto.create.topics.enable=false",
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=10",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "share.coordinator.state.topic.replication.factor=1",
                        "share.coordinator.state.topic.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        ""));
        return properties;
    }
}
