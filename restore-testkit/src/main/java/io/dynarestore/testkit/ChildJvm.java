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

    private ChildJvm() {}

    /** {@code java}, the test flags and {@code -Xmx<heap>}: add the class path and main class or jar. */
    public static List<String> command(String heap) {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags());
        command.add("-Xmx" + heap);
        return command;
    }

    static List<String> flags() {
        String flags =
                System.getProperty("dynarestore.test.jvm.flags", DEFAULT_FLAGS).strip();
        return flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
    }
}
