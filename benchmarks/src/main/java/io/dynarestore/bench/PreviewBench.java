package io.dynarestore.bench;

import io.dynarestore.api.preview.Preview;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Preview latency on a 1,000,000-item backup in S3Proxy (issue #4): the first 50 matches of a
 * selective filter whose matches sit near the start, and a filter that matches nothing, under the
 * default 2 s time bound.
 *
 * <pre>./mvnw -q -DskipTests install && java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.PreviewBench [items]</pre>
 */
public final class PreviewBench {

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        try (var s3 = S3Server.start("vault")) {
            var layout = new VaultLayout("vault", "");
            var items = new RandomItems(2026, RandomItems.Shape.simple());
            var writer = new BackupWriter(s3.client(), layout, "000000000000", "us-east-1", "bench", "b", 10_000);
            try (var part = writer.openPart()) {
                for (int i = 0; i < count; i++) {
                    part.write(items.item(i));
                }
            }
            var description = SdkJson.fromJson(
                    "{\"TableName\":\"bench\",\"AttributeDefinitions\":["
                            + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"}],"
                            + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}",
                    TableDescription.builder());
            writer.finish(description, List.of(), null, Instant.now(), null);
            var catalog = new VaultCatalog(s3.client(), layout);
            var backup = catalog.findBackup("000000000000", "us-east-1", "bench", "b")
                    .orElseThrow();
            var key = KeySchema.of(description);
            var preview = new Preview(s3.client(), catalog, 64L << 20);

            // matches near the start: 8 partition keys of the first items of the backup's first data
            // file (56 items of 1,000,000)
            var early = new ArrayList<Scope.KeyFilter>();
            var f = backup.files().get(0);
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket("vault").key(f.dataFileS3Key())),
                    null)) {
                var seen = new LinkedHashSet<String>();
                for (ExportLine line; seen.size() < 8 && (line = reader.next()) != null; ) {
                    seen.add(line.item().get("pk").s());
                }
                seen.forEach(pk -> early.add(new Scope.KeyFilter(new Scope.Condition("EqualTo", List.of(pk)), null)));
            }
            var nearStart = RecordFilter.compile(new Scope.Records(early, List.of()), key);
            // no match at all: the whole backup would have to be read
            var atEnd = RecordFilter.compile(
                    new Scope.Records(
                            List.of(new Scope.KeyFilter(new Scope.Condition("EqualTo", List.of("no-such-key")), null)),
                            List.of()),
                    key);

            for (int round = 0; round < 3; round++) {
                var first = preview.run(backup, null, key, nearStart, 50, 4L << 20, Duration.ofSeconds(2));
                var bounded = preview.run(backup, null, key, atEnd, 50, 4L << 20, Duration.ofSeconds(2));
                System.out.printf(
                        "round %d: near start: %d records in %d ms (complete=%s, %,d scanned); "
                                + "no match: %d records in %d ms (complete=%s, %,d scanned)%n",
                        round,
                        first.records().size(),
                        first.elapsedMs(),
                        first.complete(),
                        first.scanned(),
                        bounded.records().size(),
                        bounded.elapsedMs(),
                        bounded.complete(),
                        bounded.scanned());
            }
        }
    }
}
