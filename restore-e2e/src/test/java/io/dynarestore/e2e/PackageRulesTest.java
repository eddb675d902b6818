package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.testkit.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Rules on the sources of main code: every package says its rule in a {@code package-info.java},
 * and classes are named by an import, not by their fully qualified name inline (unless two classes
 * of one simple name meet in one file).
 */
class PackageRulesTest {

    private static final Pattern QUALIFIED = Pattern.compile(
            "(?<![\\w.\"])((?:java|javax|jakarta|org|com|software|io|tools|kafka|net)\\.(?:[a-z0-9_]+\\.)+)([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("^import ([\\w.]+)\\.([A-Z]\\w*);", Pattern.MULTILINE);
    private static final Pattern COMMENT_OR_STRING =
            Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"", Pattern.DOTALL);

    @Test
    void everyMainPackageHasAPackageInfoStatingItsRule() throws IOException {
        // Given every directory of main Java sources in the repository
        List<Path> packages =
                mainSources().stream().map(Path::getParent).distinct().toList();

        // Then each holds a package-info.java with a Javadoc comment
        assertThat(packages).hasSizeGreaterThan(40);
        assertThat(packages).allSatisfy(dir -> {
            Path info = dir.resolve("package-info.java");
            assertThat(info).as("the rule of package %s", dir).exists();
            assertThat(Files.readString(info)).as(info.toString()).startsWith("/**");
        });
    }

    @Test
    void mainCodeNamesClassesByImportsNotByFullyQualifiedNamesInline() throws IOException {
        // Given every main source file, without its comments, strings, imports and package line
        var inline = new ArrayList<String>();
        for (Path file : mainSources()) {
            String source = Files.readString(file);
            Map<String, String> imported = new HashMap<>();
            Matcher imports = IMPORT.matcher(source);
            while (imports.find()) {
                imported.put(imports.group(2), imports.group(1));
            }
            String code = COMMENT_OR_STRING.matcher(source).replaceAll(" ");
            for (String line : code.split("\n")) {
                if (line.startsWith("import ") || line.startsWith("package ")) {
                    continue;
                }
                Matcher qualified = QUALIFIED.matcher(line);
                while (qualified.find()) {
                    String name = qualified.group(2);
                    String packageName =
                            qualified.group(1).substring(0, qualified.group(1).length() - 1);
                    boolean clash =
                            imported.containsKey(name) && !imported.get(name).equals(packageName);
                    if (!clash) {
                        inline.add(RepoRoot.find().relativize(file) + ": " + qualified.group());
                    }
                }
            }
        }

        // Then no class is named inline where an import would do
        assertThat(inline)
                .as("fully qualified names in main code; import them instead")
                .isEmpty();
    }

    @Test
    void theRuleOnQualifiedNamesSeesThemAndLetsAClashOfSimpleNamesPass() {
        assertThat(QUALIFIED
                        .matcher("var c = new java.util.ArrayList<String>();")
                        .find())
                .isTrue();
        assertThat(QUALIFIED
                        .matcher("var c = new ArrayList<String>(); list.stream()")
                        .find())
                .isFalse();
        assertThat(QUALIFIED
                        .matcher("x = java.time.temporal.ChronoUnit.DAYS;")
                        .results()
                        .map(m -> m.group(2)))
                .containsExactly("ChronoUnit");
        assertThat(COMMENT_OR_STRING
                        .matcher("a(\"java.util.List\") // java.util.Map")
                        .replaceAll(" "))
                .doesNotContain("java.util");
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(RepoRoot.find(), 12)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/")
                            && !p.toString().contains("/target/")
                            && !p.toString().contains("/node_modules/"))
                    .toList();
        }
    }
}
