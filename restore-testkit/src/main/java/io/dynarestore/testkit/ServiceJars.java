package io.dynarestore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A service's runnable jar as a local stack starts it: extracted once next to the built
 * {@code *-exec.jar} ({@code java -Djarmode=tools extract}, Spring Boot's production layout), because
 * a JVM started from the extracted jar and its {@code lib/} spends half the CPU of one started from
 * the nested jar (about 10 against 5.3 CPU-seconds to a started restore-planner, C1 only). Each build
 * of a jar is extracted into a directory of its own, named by the jar's time and size, and moved
 * into place whole, so that the stacks of two test modules extracting at once never run a
 * half-written copy.
 */
public final class ServiceJars {

    /** Each service module and the prefix of its Spring settings ({@code planner.*}, ...). */
    private static final Map<String, String> SETTINGS_PREFIX = Map.of(
            "restore-api", "api",
            "restore-planner", "planner",
            "item-writer", "writer",
            "exporter", "exporter",
            "notifier", "notifier",
            "protector", "protector");

    private ServiceJars() {}

    /** The prefix of {@code service}'s settings, which local stacks also use to name its port. */
    public static String settingsPrefix(String service) {
        String prefix = SETTINGS_PREFIX.get(service);
        if (prefix == null) {
            throw new IllegalArgumentException(
                    "no service module named " + service + "; the services are " + SETTINGS_PREFIX.keySet());
        }
        return prefix;
    }

    /** The extracted form of the {@code *-exec.jar} in {@code module}'s {@code target} directory. */
    public static Path runnable(Path module) {
        Path target = module.resolve("target");
        Path execJar;
        try (Stream<Path> files = Files.list(target)) {
            execJar = files.filter(p -> p.getFileName().toString().endsWith("-exec.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no runnable jar of " + module.getFileName()
                            + "; build it with ./mvnw -DskipTests install"));
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + target, e);
        }
        return extracted(execJar);
    }

    /** {@code execJar} extracted; extracts it when this build of it has not been yet. */
    private static Path extracted(Path execJar) {
        try {
            var attributes = Files.readAttributes(execJar, BasicFileAttributes.class);
            Path root = execJar.resolveSibling("extracted");
            Path dir = root.resolve(attributes.lastModifiedTime().toMillis() + "-" + attributes.size());
            Path jar = dir.resolve(execJar.getFileName());
            if (Files.exists(jar)) {
                return jar;
            }
            Files.createDirectories(root);
            Path scratch = Files.createTempDirectory(root, "partial-");
            try {
                Path out = scratch.resolve("out");
                extract(execJar, out);
                try {
                    Files.move(out, dir, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    // rename(2) onto a directory another stack filled first fails (ENOTEMPTY): its copy is whole
                    if (!Files.exists(jar)) {
                        throw e;
                    }
                }
            } finally {
                deleteTree(scratch);
            }
            if (!Files.exists(jar)) {
                throw new IllegalStateException("extracting " + execJar + " left no " + jar);
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("could not extract " + execJar, e);
        }
    }

    private static void extract(Path execJar, Path out) throws IOException {
        Path log = out.resolveSibling("extract.log");
        var command = new ArrayList<>(ChildJvm.command("128m"));
        command.addAll(
                List.of("-Djarmode=tools", "-jar", execJar.toString(), "extract", "--destination", out.toString()));
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("extracting " + execJar + " took over 2 minutes");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while extracting " + execJar, e);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(
                    "extracting " + execJar + " exited with " + p.exitValue() + ": " + Files.readString(log));
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
