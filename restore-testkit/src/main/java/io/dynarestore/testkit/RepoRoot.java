package io.dynarestore.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root: where {@code node_modules/} (dynalite) is installed. */
public final class RepoRoot {

    private RepoRoot() {}

    public static Path find() {
        String configured = System.getProperty("dynarestore.repo.root");
        if (configured != null && Files.isDirectory(Path.of(configured, "node_modules"))) {
            return Path.of(configured).toAbsolutePath();
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("node_modules/dynalite/cli.js"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("dynalite is not installed: run 'npm ci' at the repository root "
                + "(it installs dynalite@4.0.0 into node_modules/), or set -Ddynarestore.repo.root");
    }
}
