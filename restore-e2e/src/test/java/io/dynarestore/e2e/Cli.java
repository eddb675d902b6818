package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.Json;
import io.dynarestore.testkit.RepoRoot;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The {@code ./dynarestore} command line, run as a user runs it, against a stack's restore-api. */
final class Cli {

    private Cli() {}

    /** Runs {@code dynarestore args...}; it must exit 0, and its output is the API's JSON answer. */
    static JsonNode run(URI api, String... args) throws Exception {
        var command = new ArrayList<String>(
                List.of("bash", RepoRoot.find().resolve("dynarestore").toString()));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DYNARESTORE_API", api.toString());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
        return Json.mapper().readTree(out);
    }
}
