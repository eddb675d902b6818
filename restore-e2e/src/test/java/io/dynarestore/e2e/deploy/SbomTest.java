package io.dynarestore.e2e.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The build leaves a CycloneDX SBOM of each service next to its jar, listing what ships in the image. */
class SbomTest {

    @Test
    void everyPackagedServiceHasACycloneDxSbomOfItsRuntimeDependencies() throws Exception {
        for (var service : Manifests.SERVICES) {
            Path target = Manifests.root().resolve(service.name()).resolve("target");
            Path sbom = target.resolve("sbom.json");
            boolean packaged = false;
            if (Files.isDirectory(target)) {
                try (var files = Files.list(target)) {
                    packaged = files.anyMatch(f -> f.getFileName().toString().endsWith("-exec.jar"));
                }
            }
            Assumptions.assumeTrue(packaged, service.name() + " is not packaged in this build");
            Assumptions.assumeTrue(
                    Files.exists(sbom), "no " + sbom + ": the CycloneDX plugin runs in online builds only");
            JsonNode bom = JsonMapper.builder().build().readTree(Files.readString(sbom));
            assertThat(bom.get("bomFormat").asString()).isEqualTo("CycloneDX");
            assertThat(bom.get("metadata").get("component").get("name").asString())
                    .isEqualTo(service.name());
            var names = new java.util.HashSet<String>();
            bom.get("components").forEach(c -> names.add(c.get("name").asString()));
            assertThat(names)
                    .as(service.name())
                    .contains("kafka-clients", "restore-contracts")
                    .doesNotContain("junit-jupiter-api", "assertj-core");
        }
    }
}
