package io.dynarestore.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import io.dynarestore.testkit.ServiceJars;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runnable jars extracted once per build, whole, even when two stacks ask at once. */
class ServiceJarsIT {

    @TempDir
    Path module;

    @Test
    void extractsEachBuildOnceAndWholeWhenTwoStacksAskAtOnce() throws Exception {
        // Given a module whose target holds a runnable jar (the notifier's, copied)
        Path built = ServiceJars.runnable(RepoRoot.find().resolve("notifier"));
        Path execJar = Files.createDirectories(module.resolve("target")).resolve("notifier-exec.jar");
        try (Stream<Path> files = Files.list(RepoRoot.find().resolve("notifier/target"))) {
            Files.copy(
                    files.filter(p -> p.getFileName().toString().endsWith("-exec.jar"))
                            .findFirst()
                            .orElseThrow(),
                    execJar);
        }

        // When two stacks ask for it at the same time
        var pool = Executors.newFixedThreadPool(2);
        Callable<Path> ask = () -> ServiceJars.runnable(module);
        var first = pool.submit(ask);
        var second = pool.submit(ask);
        Path a = first.get();
        Path b = second.get();
        pool.shutdown();

        // Then both run the same whole copy, and no partial copy is left behind
        assertThat(a).isEqualTo(b).exists();
        assertThat(a.resolveSibling("lib"))
                .isDirectoryContaining(p -> p.toString().endsWith(".jar"));
        try (Stream<Path> copied = Files.list(a.resolveSibling("lib"));
                Stream<Path> expected = Files.list(built.resolveSibling("lib"))) {
            assertThat(copied.count()).isEqualTo(expected.count());
        }
        try (Stream<Path> dirs = Files.list(module.resolve("target/extracted"))) {
            assertThat(dirs.map(p -> p.getFileName().toString()).toList())
                    .singleElement()
                    .asString()
                    .matches("\\d+-\\d+");
        }

        // and a new build of the jar is extracted anew, beside the old one
        Files.setLastModifiedTime(
                execJar, FileTime.fromMillis(Files.getLastModifiedTime(execJar).toMillis() + 1_000));
        Path rebuilt = ServiceJars.runnable(module);
        assertThat(rebuilt).isNotEqualTo(a).exists();
        assertThat(ServiceJars.runnable(module)).isEqualTo(rebuilt);
    }
}
