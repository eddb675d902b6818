package io.dynarestore.api.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.api.history.ItemHistory.Kind;
import io.dynarestore.api.history.ItemHistory.Origin;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemHistoryTest {

    static final long SECOND = 1_000_000L;
    static final long T0 = 1_800_000_000L * SECOND;

    /** One expected version: the write's time, what it did, and the image after it. */
    record Expected(long micros, Kind kind, String image) {}

    static Stream<Long> seeds() {
        return IntStream.range(0, 50).mapToObj(i -> 7_000L + i);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void theHistoryOfAKeyIsEveryWriteABruteForceReplaySeesOfIt(long seed) {
        // Given a random history whose change log covers it without a gap (exports that overlap and
        // repeat writes), with backups taken along it
        var r = new Random(seed);
        var history = new RandomHistory(seed, RandomItems.Shape.simple(), 20, 150, T0 + 1, 120 * SECOND);
        var vault = new FakeVault(history);
        vault.backup("base", T0);
        for (int i = 0; i < 3; i++) {
            vault.backup("b" + i, T0 + (1 + r.nextInt(119)) * SECOND + r.nextInt(1_000_000));
        }
        long cursor = T0 - r.nextInt(2) * SECOND;
        for (int n = 0; cursor < T0 + 121 * SECOND; n++) {
            long length = (2 + r.nextInt(20)) * SECOND + r.nextInt(1000);
            long overlap = r.nextInt(3) == 0 ? r.nextInt(3) * SECOND : 0;
            vault.export("x" + n, cursor - overlap, cursor + length);
            cursor += length;
        }

        // When the history of 20 random keys is read over a random range, in pages of a random size
        var keys = keys(history);
        for (int k = 0; k < 20; k++) {
            var key = keys.get(r.nextInt(keys.size()));
            long from = T0 + (r.nextBoolean() ? 0 : r.nextInt(100)) * SECOND;
            long to = from + (r.nextBoolean() ? 200 : r.nextInt(60)) * SECOND;
            int limit = 1 + r.nextInt(6);
            var read = new ArrayList<Expected>();
            ItemHistory.Page first = null;
            long pageFrom = from;
            for (int pages = 0; pages < 200; pages++) {
                var page = new ItemHistory(vault).read(key, pageFrom, to, limit);
                first = first == null ? page : first;
                page.versions().forEach(v -> {
                    assertThat(v.origin()).isEqualTo(Origin.CHANGE_LOG);
                    read.add(new Expected(v.micros(), v.kind(), canonical(v.image())));
                });
                if (page.next() == null) {
                    break;
                }
                assertThat(page.versions()).hasSize(limit);
                pageFrom = page.next();
            }

            // Then they are the key's writes in the range, oldest first, and the first page starts from the
            // item as it was just before the range
            assertThat(read).as("seed %d key %s", seed, key).isEqualTo(expected(history, key, from, to));
            assertThat(first.beforeKnown()).isTrue();
            assertThat(canonical(first.before()))
                    .isEqualTo(canonical(history.imageBefore(from).get(ItemDigests.key(key, history.keyAttributes()))));
        }
    }

    @Test
    void aChangeInAGapOfTheLogIsShownAtTheBackupThatEndsTheGap() {
        // Given a key overwritten while the change log has a gap, and a backup taken after the overwrite
        var history = new RandomHistory(11, RandomItems.Shape.simple(), 5, 60, T0 + 1, 60 * SECOND);
        var key = firstOverwrittenKey(history);
        long overwrite = history.writes().stream()
                .filter(w -> same(w.keys(), key))
                .findFirst()
                .orElseThrow()
                .micros();
        var vault = new FakeVault(history);
        vault.backup("base", T0);
        vault.export("before-gap", T0, overwrite - 1);
        vault.backup("after-gap", overwrite + 1);
        vault.export("after-backup", overwrite + 1, T0 + 61 * SECOND);

        // When its history is read
        var page = new ItemHistory(vault).read(key, T0, T0 + 61 * SECOND, 100);

        // Then the first version is the backup's, at its time, with the image the overwrite left
        var v = page.versions().get(0);
        assertThat(v.origin()).isEqualTo(Origin.BACKUP);
        assertThat(v.backupId()).isEqualTo("after-gap");
        assertThat(v.micros()).isEqualTo(overwrite + 1);
        assertThat(canonical(v.image()))
                .isEqualTo(canonical(
                        history.imageBefore(overwrite + 2).get(ItemDigests.key(key, history.keyAttributes()))));
        assertThat(page.versions()).extracting(ItemHistory.Version::origin).containsOnlyOnce(Origin.BACKUP);
    }

    @Test
    void readsOnlyTheExportsThePageNeeds() {
        // Given twenty exports in a row, and a key written in the first ones
        var history = new RandomHistory(5, RandomItems.Shape.simple(), 3, 300, T0 + 1, 200 * SECOND);
        var vault = new FakeVault(history);
        vault.backup("base", T0);
        for (int n = 0; n < 20; n++) {
            vault.export("x" + n, T0 + n * 10 * SECOND, T0 + (n + 1) * 10 * SECOND);
        }
        var key = keys(history).get(0);

        // When one version is asked for
        var page = new ItemHistory(vault).read(key, T0, T0 + 200 * SECOND, 1);

        // Then reading stopped at the export that holds the version after it
        assertThat(page.versions()).hasSize(1);
        long second = page.next();
        assertThat(vault.exportsRead)
                .isEqualTo((int) ((second - T0 - 1) / (10 * SECOND)) + 1)
                .isLessThan(20);
    }

    @Test
    void withoutABackupBeforeTheRangeAWriteSaysWhatWasThereByItsOldImage() {
        // Given only the change log before the first backup
        var history = new RandomHistory(3, RandomItems.Shape.simple(), 4, 40, T0 + 1, 30 * SECOND);
        var vault = new FakeVault(history);
        vault.export("x0", T0, T0 + 31 * SECOND);
        vault.backup("later", T0 + 40 * SECOND);
        var key = keys(history).get(0);

        // When the history is read from before the backup
        var page = new ItemHistory(vault).read(key, T0, T0 + 31 * SECOND, 100);

        // Then what was there before is not known, and the kinds come from the writes' old images
        assertThat(page.beforeKnown()).isFalse();
        var expected = expected(history, key, T0, T0 + 31 * SECOND);
        assertThat(page.versions())
                .extracting(v -> new Expected(v.micros(), v.kind(), canonical(v.image())))
                .isEqualTo(expected);
    }

    @Test
    void fromBeforeEveryBackupTheFirstBackupShowsAnItemItHoldsAndNothingForOneItDoesNot() {
        // Given a table whose vault begins with a backup, then its change log
        var history = new RandomHistory(9, RandomItems.Shape.simple(), 6, 50, T0 + 1, 30 * SECOND);
        var vault = new FakeVault(history);
        vault.backup("first", T0);
        vault.export("x0", T0, T0 + 31 * SECOND);
        var inBase = history.base().get(0);
        var created = history.writes().stream()
                .filter(w -> w.oldImage() == null && w.newImage() != null)
                .filter(w -> history.base().stream().noneMatch(b -> same(b, w.keys())))
                .findFirst()
                .orElseThrow()
                .keys();

        // When the histories of a key in the backup and of one created after it are read from before the backup
        var held = new ItemHistory(vault).read(key(inBase), T0 - 10 * SECOND, T0 + 31 * SECOND, 100);
        var notHeld = new ItemHistory(vault).read(created, T0 - 10 * SECOND, T0 + 31 * SECOND, 100);

        // Then the held key's first version is the backup's, written at some time before it; the other's is its
        // creation
        assertThat(held.beforeKnown()).isFalse();
        assertThat(held.versions().get(0).origin()).isEqualTo(Origin.BACKUP);
        assertThat(held.versions().get(0).kind()).isEqualTo(Kind.WRITTEN);
        assertThat(canonical(held.versions().get(0).image())).isEqualTo(canonical(inBase));
        assertThat(notHeld.versions().get(0).origin()).isEqualTo(Origin.CHANGE_LOG);
        assertThat(notHeld.versions().get(0).kind()).isEqualTo(Kind.CREATED);
    }

    static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    static List<Expected> expected(RandomHistory history, Map<String, AttributeValue> key, long from, long to) {
        var result = new ArrayList<Expected>();
        for (var w : history.writes()) {
            if (same(w.keys(), key) && w.micros() >= from && w.micros() <= to) {
                Kind kind =
                        w.newImage() == null ? Kind.DELETED : w.oldImage() == null ? Kind.CREATED : Kind.OVERWRITTEN;
                result.add(new Expected(w.micros(), kind, canonical(w.newImage())));
            }
        }
        return result;
    }

    static List<Map<String, AttributeValue>> keys(RandomHistory history) {
        var keys = new ArrayList<Map<String, AttributeValue>>();
        history.writes().forEach(w -> {
            if (keys.stream().noneMatch(k -> same(k, w.keys()))) {
                keys.add(w.keys());
            }
        });
        return keys;
    }

    static Map<String, AttributeValue> firstOverwrittenKey(RandomHistory history) {
        return history.writes().stream()
                .filter(w -> w.oldImage() != null && w.newImage() != null)
                .findFirst()
                .orElseThrow()
                .keys();
    }

    static boolean same(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        return ItemDigests.key(a, List.of("pk", "sk")).equals(ItemDigests.key(b, List.of("pk", "sk")));
    }

    static String canonical(Map<String, AttributeValue> item) {
        return item == null ? null : ItemDigests.canonical(item);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, SECOND), Math.floorMod(micros, SECOND) * 1_000);
    }

    /** A vault made from a random history: backups hold the image at their time, exports every write in (from, to]. */
    static final class FakeVault implements HistoryVault {
        final RandomHistory history;
        final List<BackupSummary> backups = new ArrayList<>();
        final List<ExportMetadata> exports = new ArrayList<>();
        int exportsRead;

        FakeVault(RandomHistory history) {
            this.history = history;
        }

        void backup(String id, long micros) {
            backups.add(new BackupSummary(id, instant(micros), null, "a", "r", "t", 0, 0, null));
        }

        void export(String id, long from, long to) {
            exports.add(new ExportMetadata(
                    ExportMetadata.FORMAT_VERSION, id, "a", "r", "t", instant(from), instant(to), false, 0, null));
        }

        @Override
        public List<BackupSummary> backups() {
            return backups;
        }

        @Override
        public List<ExportMetadata> exports() {
            return exports;
        }

        @Override
        public Map<String, AttributeValue> imageIn(BackupSummary backup, Map<String, AttributeValue> key) {
            long t = backup.takenAt().getEpochSecond() * SECOND
                    + backup.takenAt().getNano() / 1_000;
            return history.imageBefore(t + 1).get(ItemDigests.key(key, history.keyAttributes()));
        }

        @Override
        public void changesIn(ExportMetadata export, Map<String, AttributeValue> key, Consumer<ExportLine> sink) {
            exportsRead++;
            long from = export.from().getEpochSecond() * SECOND + export.from().getNano() / 1_000;
            long to = export.to().getEpochSecond() * SECOND + export.to().getNano() / 1_000;
            // in reverse, since a file's order is not the log's
            var writes = new ArrayList<>(history.writes());
            Collections.reverse(writes);
            for (var w : writes) {
                if (same(w.keys(), key) && w.micros() > from && w.micros() <= to) {
                    sink.accept(ExportLine.change(w.keys(), w.oldImage(), w.newImage(), w.micros()));
                }
            }
        }
    }
}
