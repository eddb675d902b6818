package io.dynarestore.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command that starts a JVM from a test: this JVM's {@code java} with the flags the build gives
 * every test JVM ({@code dynarestore.test.jvm.flags}: C1 only and the serial collector, ADR 0028),
 * so that a service a test kills and restarts costs no more CPU than one in the test's own JVM.
 */
public final class ChildJvm {

    static final String DEFAULT_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=240m";

    /**
     * Arguments for a service a test kills: a killed member's Kafka partitions move after 6 s
     * instead of the default 45.
     */
    public static final List<String> SHORT_KAFKA_SESSION = List.of(
            "--spring.kafka.consumer.properties.session.timeout.ms=6000",
            "--spring.kafka.consumer.properties.heartbeat.interval.ms=1500");

    private ChildJvm() {}

    /** {@code java}, the test flags and {@code -Xmx<heap>}: add the class path and main class or jar. */
    public static List<String> command(String heap) {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags());
        command.add("-Xmx" + heap);
        return command;
    }

    /** {@link #command}, then {@code -jar} and {@code service}'s runnable jar as it is deployed ({@link ServiceJars}). */
    public static List<String> service(String service, String heap) {
        var command = new ArrayList<>(command(heap));
        command.add("-jar");
        command.add(ServiceJars.runnable(RepoRoot.find().resolve(service)).toString());
        return command;
    }

    static List<String> flags() {
        String flags =
                System.getProperty("dynarestore.test.jvm.flags", DEFAULT_FLAGS).strip();
        return flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    }
}
