package io.dynarestore.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.VaultImage;
import io.dynarestore.protector.backups.BackupSchedule;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordedWorkload;
import io.dynarestore.testkit.RepoRoot;
import io.dynarestore.testkit.StreamedTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The protection side at full scale (issue 19's "nothing lost"): three protected tables take about 50
 * writes/s for {@code protection.soak.minutes} while one protector replica is SIGKILLed twice and the
 * broker is restarted once; then 200 random seconds of the workload are compared with a brute-force
 * replay of its own record, and a few of them are restored for real into new tables. Off in the
 * default build (it takes the minutes it is given); {@code -Pprotection-soak} runs it for 10 minutes.
 */
class ProtectionSoakIT {

    private static final List<RandomItems.Shape> SHAPES = List.of(
            new RandomItems.Shape("pk", "S", "sk", "N", Map.of()),
            new RandomItems.Shape("id", "B", null, null, Map.of()),
            new RandomItems.Shape("n", "N", "s", "S", Map.of()));
    private static final int FLUSH_SECONDS = 5;
    private static final int BACKUP_SECONDS = 60;
    private static final int WRITES_PER_SECOND = 50;
    private static final int SECONDS_COMPARED = 200;
    private static final int RESTORES = 3;

    @Test
    void everyRandomSecondOfATenMinuteWorkloadRestoresExactlyThroughProtectorKillsAndABrokerRestart() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("protection.soak.minutes", "0"));
        assumeTrue(minutes > 0, "the protection soak runs with -Pprotection-soak (or -Dprotection.soak.minutes=N)");
        long seed = Long.getLong("protection.soak.seed", 20261202L);
        long runMillis = (long) (minutes * 60_000);
        Path dir = RepoRoot.find().resolve("restore-chaos/target/protection-soak");
        ChaosStack.deleteQuietly(dir);
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var report = new StringBuilder("# Protection soak\n\n");

        try (var stack = ChaosStack.start(dir, classpath)) {
            var api = new ApiCalls(stack);
            var vault =
                    new VaultImage(stack.s3(), new VaultCatalog(stack.s3(), new VaultLayout(ChaosStack.BUCKET, "")));
            // Given three tables of different key shapes with a stream, items written before protection,
            var dynamo = stack.dynamoAsServices();
            var workloads = new ArrayList<RecordedWorkload>();
            for (int i = 0; i < SHAPES.size(); i++) {
                StreamedTables.create(dynamo, table(i), SHAPES.get(i));
                var w = new RecordedWorkload(dynamo, table(i), SHAPES.get(i), seed + i, 200);
                for (int n = 0; n < 100; n++) {
                    w.step();
                }
                workloads.add(w);
            }
            // each protected through the API (SCAN backups every minute, the stream flushed every 5 s)
            for (int i = 0; i < SHAPES.size(); i++) {
                api.protect(table(i), "PT" + BACKUP_SECONDS + "S", "PT" + FLUSH_SECONDS + "S");
            }
            for (int i = 0; i < SHAPES.size(); i++) {
                api.awaitBackup(table(i), Duration.ofMinutes(3));
            }

            // When about 50 writes/s run over the three tables while protector replica 0 is SIGKILLed at a
            // quarter and at seven tenths of the run, and the broker is restarted at nine twentieths
            var faults = new Faults(stack, runMillis);
            var watcher = new RestorableWatcher(vault, table(0));
            watcher.start();
            var random = new Random(seed);
            long begin = System.currentTimeMillis();
            long next = begin;
            while (System.currentTimeMillis() - begin < runMillis) {
                workloads.get(random.nextInt(workloads.size())).step();
                next += 1_000 / WRITES_PER_SECOND;
                long wait = next - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                faults.strikeDue(System.currentTimeMillis() - begin);
            }
            long end = System.currentTimeMillis();
            int writes = workloads.stream()
                    .mapToInt(w -> (int) w.writes().stream()
                            .filter(x -> x.answeredMillis() >= begin)
                            .count())
                    .sum();
            report.append(String.format(
                    "- %d writes in %.1f s over %d tables (%.1f writes/s); faults: %s%n",
                    writes,
                    (end - begin) / 1000.0,
                    workloads.size(),
                    writes * 1000.0 / (end - begin),
                    faults.struck(begin)));

            // Then every table's change log catches up with its last write, with no gap
            for (int i = 0; i < workloads.size(); i++) {
                long last = workloads.get(i).lastSecond();
                api.awaitRestorable(vault, table(i), last, Duration.ofMinutes(3));
            }
            watcher.awaitSeen(workloads.get(0).lastSecond(), Duration.ofMinutes(1));
            watcher.interrupt();
            for (int i = 0; i < workloads.size(); i++) {
                var availability = vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, table(i))
                        .availability();
                assertThat(availability.gaps()).as(table(i) + " has no gap").isEmpty();
            }

            // and the write-to-restorable time is measured, away from the faults and with them
            var freshness = watcher.freshness(workloads.get(0), begin, faults.times(), FLUSH_SECONDS);
            report.append("- ").append(freshness).append('\n');

            // and at 200 random seconds of the workload, the vault's image is the replay of the workload's record
            var sample = new ArrayList<long[]>();
            for (int i = 0; i < workloads.size(); i++) {
                var w = workloads.get(i);
                long first = vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, table(i))
                        .availability()
                        .windows()
                        .get(0)
                        .start()
                        .getEpochSecond();
                for (long s = Math.max(first, begin / 1000); s <= w.lastSecond(); s++) {
                    if (!w.isAmbiguous(s)) {
                        sample.add(new long[] {i, s});
                    }
                }
            }
            java.util.Collections.shuffle(sample, random);
            var compared = new Comparison();
            for (long[] pick : sample.subList(0, Math.min(SECONDS_COMPARED, sample.size()))) {
                int i = (int) pick[0];
                Instant t = Instant.ofEpochSecond(pick[1]);
                var image = vault.at(
                        ChaosStack.ACCOUNT,
                        ChaosStack.REGION,
                        table(i),
                        t,
                        workloads.get(i).keyAttributes());
                assertThat(image).as(table(i) + " restorable at " + t).isPresent();
                compared.add(table(i) + " at " + t, workloads.get(i).imageAt(t), image.get());
            }
            report.append("- vault image at random seconds: ").append(compared).append('\n');

            // and restores to a random second of each table, through the services into new tables, are the replay
            var restored = new Comparison();
            for (int i = 0; i < RESTORES; i++) {
                int table = i % workloads.size();
                var w = workloads.get(table);
                long[] pick = sample.stream()
                        .filter(p -> p[0] == table)
                        .skip(random.nextInt(20))
                        .findFirst()
                        .orElseThrow();
                Instant t = Instant.ofEpochSecond(pick[1]);
                String target = table(table) + "-at-" + pick[1];
                long took = api.restore(table(table), t, target);
                restored.add(
                        target + " (" + took + " ms)",
                        w.imageAt(t),
                        ItemDigests.ofTable(stack.dynamo(), target, w.keyAttributes()));
            }
            report.append("- restores through the services: ").append(restored).append('\n');

            // and each backup slot since protection began has exactly one scheduled backup, across the kills
            var catalog = new VaultCatalog(stack.s3(), new VaultLayout(ChaosStack.BUCKET, ""));
            int slots = 0;
            for (int i = 0; i < workloads.size(); i++) {
                var ids = catalog.listBackups(ChaosStack.ACCOUNT, ChaosStack.REGION, table(i)).stream()
                        .map(b -> b.backupId())
                        .filter(id -> id.endsWith("-scheduled"))
                        .toList();
                assertThat(ids).as(table(i) + " scheduled backups").doesNotHaveDuplicates();
                var every = Duration.ofSeconds(BACKUP_SECONDS);
                Instant lastSlot = BackupSchedule.slotOf(Instant.ofEpochMilli(end), every);
                for (Instant slot = BackupSchedule.slotOf(Instant.ofEpochMilli(begin), every)
                                .plus(every);
                        !slot.isAfter(lastSlot);
                        slot = slot.plus(every)) {
                    assertThat(ids).as(table(i) + " slot " + slot).contains(BackupSchedule.backupIdOf(slot));
                    slots++;
                }
            }
            report.append("- ").append(slots).append(" backup slots during the run, each with exactly one backup\n");
            assertThat(stack.crashed()).as("services that exited by themselves").isEmpty();

            System.out.println(report);
            Files.writeString(dir.resolve("report.md"), report);
            assertThat(compared.seconds()).isEqualTo(Math.min(SECONDS_COMPARED, sample.size()));
            assertThat(compared.seconds()).isGreaterThanOrEqualTo((int) Math.min(SECONDS_COMPARED, minutes * 60));
            assertThat(compared.lost() + compared.extra() + compared.wrong())
                    .as(compared.toString())
                    .isZero();
            assertThat(restored.lost() + restored.extra() + restored.wrong())
                    .as(restored.toString())
                    .isZero();
            assertThat(freshness.p99AwayFromFaults())
                    .as(freshness.toString())
                    .isLessThanOrEqualTo(2_000L * FLUSH_SECONDS);
        }
    }

    static String table(int i) {
        return "soak-" + i;
    }

    /** The faults of a run, each struck once when its time has come. */
    static final class Faults {
        private final ChaosStack stack;
        private final long[] at;
        private final String[] what = {"protector-0 SIGKILL", "broker restart", "protector-0 SIGKILL"};
        private final List<Long> struck = new ArrayList<>();

        Faults(ChaosStack stack, long runMillis) {
            this.stack = stack;
            this.at = new long[] {runMillis / 4, runMillis * 9 / 20, runMillis * 7 / 10};
        }

        void strikeDue(long elapsed) throws Exception {
            int n = struck.size();
            if (n < at.length && elapsed >= at[n]) {
                struck.add(System.currentTimeMillis());
                if (n == 1) {
                    stack.restartBroker();
                } else {
                    stack.killAndRestart("protector", 0);
                }
            }
        }

        List<Long> times() {
            return struck;
        }

        String struck(long begin) {
            var s = new ArrayList<String>();
            for (int i = 0; i < struck.size(); i++) {
                s.add(what[i] + " at t+" + (struck.get(i) - begin) / 1000 + " s");
            }
            return String.join(", ", s);
        }
    }

    /** Lost, extra and wrong items over the images compared. */
    static final class Comparison {
        private int seconds;
        private long items;
        private long lost;
        private long extra;
        private long wrong;
        private final List<String> failures = new ArrayList<>();

        void add(String what, TreeMap<String, String> expected, TreeMap<String, String> actual) {
            seconds++;
            items += expected.size();
            long l = expected.keySet().stream()
                    .filter(k -> !actual.containsKey(k))
                    .count();
            long e = actual.keySet().stream()
                    .filter(k -> !expected.containsKey(k))
                    .count();
            long w = expected.entrySet().stream()
                    .filter(x -> actual.containsKey(x.getKey())
                            && !actual.get(x.getKey()).equals(x.getValue()))
                    .count();
            lost += l;
            extra += e;
            wrong += w;
            if (l + e + w > 0 && failures.size() < 10) {
                failures.add(what + ": " + l + " lost, " + e + " extra, " + w + " wrong");
            }
        }

        int seconds() {
            return seconds;
        }

        long lost() {
            return lost;
        }

        long extra() {
            return extra;
        }

        long wrong() {
            return wrong;
        }

        @Override
        public String toString() {
            return seconds + " compared (" + items + " items): " + lost + " lost, " + extra + " extra, " + wrong
                    + " wrong" + (failures.isEmpty() ? "" : " " + failures);
        }
    }

    /** Watches a table's latest restorable second, to time each write until it becomes restorable. */
    static final class RestorableWatcher extends Thread {
        private final VaultImage vault;
        private final String table;
        private final List<long[]> seen = new CopyOnWriteArrayList<>();

        RestorableWatcher(VaultImage vault, String table) {
            super("restorable-watcher");
            setDaemon(true);
            this.vault = vault;
            this.table = table;
        }

        @Override
        public void run() {
            while (!isInterrupted()) {
                try {
                    var latest = vault.coverage(ChaosStack.ACCOUNT, ChaosStack.REGION, table)
                            .availability()
                            .latestRestorable();
                    seen.add(new long[] {
                        System.currentTimeMillis(), latest == null ? Long.MIN_VALUE : latest.getEpochSecond()
                    });
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // S3 unreachable for a moment: the next look counts
                }
            }
        }

        /** Waits until a look has seen second {@code last} restorable, so that every write has its time. */
        void awaitSeen(long last, Duration atMost) throws InterruptedException {
            long deadline = System.currentTimeMillis() + atMost.toMillis();
            while (seen.stream().noneMatch(o -> o[1] >= last) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
        }

        /** The mean time between two looks, which bounds how exactly a write's time to restorable is known. */
        long meanLookMillis() {
            return seen.size() < 2 ? 0 : (seen.get(seen.size() - 1)[0] - seen.get(0)[0]) / (seen.size() - 1);
        }

        Freshness freshness(RecordedWorkload workload, long begin, List<Long> faults, int flushSeconds) {
            var away = new ArrayList<Long>();
            var all = new ArrayList<Long>();
            for (var write : workload.writes()) {
                if (write.answeredMillis() < begin) {
                    continue;
                }
                long at = seen.stream()
                        .filter(o -> o[1] >= write.lastSecond())
                        .mapToLong(o -> o[0])
                        .min()
                        .orElse(Long.MAX_VALUE);
                long lag = at - write.answeredMillis();
                all.add(lag);
                // a write is still unflushed at a fault until its second ended, settled and the next flush ran;
                // those made from then until the takeover (or the broker) is back wait for it
                long unflushed = (flushSeconds + 3) * 1_000L;
                if (faults.stream()
                        .noneMatch(
                                f -> write.answeredMillis() > f - unflushed && write.answeredMillis() < f + 30_000)) {
                    away.add(lag);
                }
            }
            java.util.Collections.sort(away);
            java.util.Collections.sort(all);
            return new Freshness(
                    away.size(),
                    pct(away, 50),
                    pct(away, 99),
                    all.size(),
                    pct(all, 50),
                    pct(all, 99),
                    all.isEmpty() ? 0 : all.get(all.size() - 1),
                    flushSeconds,
                    meanLookMillis());
        }

        private static long pct(List<Long> sorted, int p) {
            return sorted.isEmpty()
                    ? 0
                    : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * p / 100.0) - 1));
        }
    }

    record Freshness(
            int awayCount,
            long p50AwayFromFaults,
            long p99AwayFromFaults,
            int allCount,
            long p50All,
            long p99All,
            long maxAll,
            int flushSeconds,
            long lookMillis) {
        @Override
        public String toString() {
            return String.format(
                    "write to restorable (flush every %d s): p50 %d ms, p99 %d ms over %d writes away "
                            + "from the faults; with the faults' takeovers p50 %d ms, p99 %d ms, max %d ms over %d writes "
                            + "(the vault looked at every %d ms)",
                    flushSeconds,
                    p50AwayFromFaults,
                    p99AwayFromFaults,
                    awayCount,
                    p50All,
                    p99All,
                    maxAll,
                    allCount,
                    lookMillis);
        }
    }
}
