package io.dynarestore.bench;

import static io.dynarestore.bench.BenchFixtures.writeBackup;

import io.dynarestore.contracts.Topic;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A record restore of about 1% of a backup, request to completion, against a pure scan of the same
 * files (read from the same S3, inflated, split into lines) in the same run (issue #22, goal at most
 * 1.25): what the selective reader leaves of a record restore's cost beyond reading the backup.
 *
 * <pre>java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" \
 *     io.dynarestore.bench.RecordRestoreBench [items]</pre>
 */
public final class RecordRestoreBench {

    private RecordRestoreBench() {}

    /** Prints when each of the restore's status events was published, from its first. */
    static void timeline(KafkaBroker kafka, String restoreId) {
        try (var consumer = BenchFixtures.statusFromStart(kafka.bootstrapServers())) {
            long first = -1;
            var seen = new LinkedHashMap<String, Long>();
            for (int empty = 0; empty < 3; ) {
                var records = consumer.poll(Duration.ofMillis(500));
                empty = records.isEmpty() ? empty + 1 : 0;
                for (var record : records) {
                    var event = Messages.statusEvent(record.value());
                    if (event == null || !restoreId.equals(event.restoreId())) {
                        continue;
                    }
                    if (first < 0) {
                        first = record.timestamp();
                    }
                    String type = event.getClass().getSimpleName();
                    seen.merge(type + " first", record.timestamp() - first, Math::min);
                    seen.merge(type + " last", record.timestamp() - first, Math::max);
                }
            }
            seen.entrySet().stream()
                    .sorted(Map.Entry.comparingByValue())
                    .forEach(e -> System.out.printf("records: +%,6d ms %s%n", e.getValue(), e.getKey()));
        }
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        try (var kafka = KafkaBroker.start(TopicDefinitions.local().partitionCounts());
                var dynalite = Dynalite.start();
                var s3 = S3Server.start("vault")) {
            Backup backup = writeBackup(s3, "records", count, 50_000, 100);
            BenchFixtures.pureScan(s3, backup); // warms S3Proxy and the JIT as the restore's reads will be
            long s0 = System.nanoTime();
            long lines = BenchFixtures.pureScan(s3, backup);
            double scan = (System.nanoTime() - s0) / 1e9;
            System.out.printf("records: pure scan of %,d lines in %.1f s%n", lines, scan);

            List<ConfigurableApplicationContext> services =
                    BenchFixtures.plannerAndWriter(kafka, dynalite.endpoint(), s3);
            try {
                Thread.sleep(3_000);
                long started = System.nanoTime();
                // 1.1% of 1,000,000 items: partition keys beginning "p12" (11,111 of 142,858), sort key 3 of 0 to 6
                BenchFixtures.send(kafka, Topic.REQUESTS, "records-1", """
                        {"restoreId":"records-1","source":{"table":"records","backupId":"b"},
                         "scope":{"type":"RECORDS","keyFilters":[{"partitionKey":{"condition":"BeginsWith",
                           "values":["p12"]},"sortKey":{"condition":"EqualTo","values":["3"]}}]},
                         "destination":{"type":"NEW_TABLE","tableName":"records-restored"}}""");
                var end = PitrMemoryBench.awaitEnd(kafka.bootstrapServers(), "records-1", Duration.ofMinutes(20));
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf(
                        "records: record restore, request to %s, %s items written of %,d, in %.1f s%n",
                        end.get("type"), end.get("itemsWritten"), count, seconds);
                System.out.printf(
                        "RATIO record restore of 1%% (request to completion) / pure scan = %.2f (goal <= 1.25)%n",
                        seconds / scan);
                timeline(kafka, "records-1");
            } finally {
                services.forEach(ConfigurableApplicationContext::close);
            }
        }
        System.exit(0);
    }
}
