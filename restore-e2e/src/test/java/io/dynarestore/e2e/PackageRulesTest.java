package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every package of main code says its rule in a {@code package-info.java}. */
class PackageRulesTest {

    @Test
    void everyMainPackageHasAPackageInfoStatingItsRule() throws IOException {
        // Given every directory of main Java sources in the repository
        List<Path> packages;
        try (Stream<Path> files = Files.walk(RepoRoot.find(), 12)) {
            packages = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/") && !p.toString().contains("/target/")
                            && !p.toString().contains("/node_modules/"))
                    .map(Path::getParent).distinct().toList();
        }

        // Then each holds a package-info.java with a Javadoc comment
        assertThat(packages).hasSizeGreaterThan(40);
        assertThat(packages).allSatisfy(dir -> {
            Path info = dir.resolve("package-info.java");
            assertThat(info).as("the rule of package %s", dir).exists();
            assertThat(Files.readString(info)).as(info.toString()).startsWith("/**");
        });
    }
}
