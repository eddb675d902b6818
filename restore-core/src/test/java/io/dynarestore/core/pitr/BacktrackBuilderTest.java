package io.dynarestore.core.pitr;

import static io.dynarestore.core.pitr.ChangeHistory.SECOND;
import static io.dynarestore.core.pitr.ChangeHistory.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.ExportLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Backtrack and undo against a brute-force replay of 100 seeded random histories each. */
class BacktrackBuilderTest {

    static LongStream seeds() {
        return LongStream.range(0, 100);
    }

    private static List<BacktrackBuilder.Revert> reverts(ChangeHistory history, long from, long until, int bits) {
        var reverts = new ArrayList<BacktrackBuilder.Revert>();
        try (var builder = new BacktrackBuilder(history.keyAttributes, from, until, bits)) {
            history.lines.forEach(builder::add);
            var result = builder.build((hash, revert) -> reverts.add(revert));
            assertThat(result.reverts()).isEqualTo(reverts.size());
            assertThat(result.deletes())
                    .isEqualTo(reverts.stream()
                            .filter(BacktrackBuilder.Revert::deletes)
                            .count());
            assertThat(result.conflicts())
                    .isEqualTo(reverts.stream()
                            .filter(BacktrackBuilder.Revert::conflict)
                            .count());
        }
        return reverts;
    }

    private static void apply(
            Map<Map<String, AttributeValue>, Map<String, AttributeValue>> table, BacktrackBuilder.Revert revert) {
        if (revert.deletes()) {
            table.remove(revert.keys());
        } else {
            table.put(revert.keys(), revert.before());
        }
    }

    @ParameterizedTest(name = "history {0}")
    @MethodSource("seeds")
    void aBacktrackLeavesTheTableAtItsImageAtTAndTouchesOnlyTheKeysWrittenSince(long seed) {
        // Given a table with a random history, and a second T within it
        var history = new ChangeHistory(seed);
        long t = history.randomSecond();
        var table = history.current();

        // When the keys written after T are reverted from the change log alone
        var reverts = reverts(history, (t + 1) * SECOND, Long.MAX_VALUE, (int) (seed % 4));
        reverts.forEach(r -> apply(table, r));

        // Then the table is its image at T, and one write was made per key written after T
        // (but for those absent at T and now: created and deleted since)
        assertThat(table).isEqualTo(history.imageAt(t));
        var atT = history.imageAt(t);
        var now = history.current();
        assertThat(reverts)
                .extracting(BacktrackBuilder.Revert::keys)
                .containsExactlyInAnyOrderElementsOf(history.keysWritten((t + 1) * SECOND, Long.MAX_VALUE).stream()
                        .filter(k -> atT.containsKey(k) || now.containsKey(k))
                        .toList());
        assertThat(reverts).noneMatch(BacktrackBuilder.Revert::conflict);
    }

    @ParameterizedTest(name = "history {0}")
    @MethodSource("seeds")
    void aRecordBacktrackRevertsTheKeysWhoseImageAtTMatchesAndDeletesNothing(long seed) {
        // Given a random history, a second T, and records whose tag is "keep"
        var history = new ChangeHistory(seed);
        long t = history.randomSecond();
        var schema = keySchema(history);
        String noKey = switch (schema.partitionType()) {
            case "S" -> "none";
            case "N" -> "-1";
            default -> "AA==";
        };
        var filter = RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(new Scope.Condition("NotEqualTo", List.of(noKey)), null)),
                        List.of(new Scope.AttributeFilter("tag", "S", "EqualTo", List.of("keep")))),
                schema);
        var table = history.current();
        var atT = history.imageAt(t);

        // When the reverts whose image at T matches are written (a record restore never deletes)
        var written = new HashSet<Map<String, AttributeValue>>();
        for (var revert : reverts(history, (t + 1) * SECOND, Long.MAX_VALUE, 2)) {
            if (!revert.deletes() && filter.matches(revert.before())) {
                apply(table, revert);
                written.add(revert.keys());
            }
        }

        // Then each key written after T whose image at T matches is that image; every other key is as it is now
        var expected = history.current();
        var selected = new HashSet<Map<String, AttributeValue>>();
        for (var key : history.keysWritten((t + 1) * SECOND, Long.MAX_VALUE)) {
            var image = atT.get(key);
            if (image != null && filter.matches(image)) {
                expected.put(key, image);
                selected.add(key);
            }
        }
        assertThat(table).isEqualTo(expected);
        assertThat(written).isEqualTo(selected);
    }

    @ParameterizedTest(name = "history {0}")
    @MethodSource("seeds")
    void anUndoRevertsTheKeysWrittenOnlyInTheWindowAndReportsThoseWrittenAgainAfterIt(long seed) {
        // Given a random history and a window (T1, T2] inside it, with writes after it
        var history = new ChangeHistory(seed);
        long a = history.randomSecond();
        long b = history.randomSecond();
        long t1 = Math.min(a, b);
        long t2 = Math.max(a, b) + 1;
        long from = (t1 + 1) * SECOND;
        long until = (t2 + 1) * SECOND;

        // When the window is undone, leaving the conflicts as they are (the default)
        var reverts = reverts(history, from, until, 1);
        var table = history.current();
        reverts.stream().filter(r -> !r.conflict()).forEach(r -> apply(table, r));

        // Then keys written only in the window are at their image at T1, every other key is as it is now
        var inWindow = new HashSet<>(history.keysWritten(from, until));
        var after = new HashSet<>(history.keysWritten(until, Long.MAX_VALUE));
        var atT1 = history.imageAt(t1);
        var expected = history.current();
        for (var key : inWindow) {
            if (!after.contains(key)) {
                put(expected, key, atT1.get(key));
            }
        }
        assertThat(table).isEqualTo(expected);

        // and the conflicts reported are exactly the keys written both in the window and after it,
        // each with its image at T1 and its latest one
        var conflicts =
                reverts.stream().filter(BacktrackBuilder.Revert::conflict).toList();
        var both = new HashSet<>(inWindow);
        both.retainAll(after);
        assertThat(conflicts).extracting(BacktrackBuilder.Revert::keys).containsExactlyInAnyOrderElementsOf(both);
        var now = history.current();
        assertThat(conflicts).allSatisfy(c -> {
            assertThat(c.before()).isEqualTo(atT1.get(c.keys()));
            assertThat(c.latest()).isEqualTo(now.get(c.keys()));
        });
        var nowOrThen = inWindow.stream()
                .filter(k -> both.contains(k) || atT1.containsKey(k) || now.containsKey(k))
                .toList();
        assertThat(reverts).extracting(BacktrackBuilder.Revert::keys).containsExactlyInAnyOrderElementsOf(nowOrThen);
    }

    @ParameterizedTest(name = "history {0}")
    @MethodSource("seeds")
    void anUndoThatOverwritesTakesTheImageAtT1ForTheConflictsToo(long seed) {
        // Given a random history and a window (T1, T2]
        var history = new ChangeHistory(seed);
        long t1 = history.randomSecond();
        long t2 = t1 + 1 + history.random().nextInt(5);

        // When the window is undone with onConflict OVERWRITE
        var table = history.current();
        reverts(history, (t1 + 1) * SECOND, (t2 + 1) * SECOND, 0).forEach(r -> apply(table, r));

        // Then every key written in the window is at its image at T1
        var expected = history.current();
        var atT1 = history.imageAt(t1);
        history.keysWritten((t1 + 1) * SECOND, (t2 + 1) * SECOND).forEach(k -> put(expected, k, atT1.get(k)));
        assertThat(table).isEqualTo(expected);
    }

    @Test
    void theImageAtTOfAKeyIsTheOldImageOfItsFirstWriteAfterT() {
        // Given a key created before T, overwritten twice after it, and one created after T
        var key = Map.of("pk", AttributeValue.fromS("a"));
        var v1 = item("a", 1);
        var v2 = item("a", 2);
        var v3 = item("a", 3);
        var other = Map.of("pk", AttributeValue.fromS("b"));
        long t = START / SECOND;
        var lines = List.of(
                ExportLine.change(key, null, v1, START),
                ExportLine.change(key, v1, v2, START + SECOND + 5),
                ExportLine.change(other, null, item("b", 9), START + SECOND + 6),
                ExportLine.change(key, v2, v3, START + 2 * SECOND));

        // When the table is backtracked to T
        var reverts = new HashMap<Map<String, AttributeValue>, BacktrackBuilder.Revert>();
        try (var builder = new BacktrackBuilder(List.of("pk"), (t + 1) * SECOND, Long.MAX_VALUE, 0)) {
            lines.forEach(builder::add);
            builder.build((hash, r) -> reverts.put(r.keys(), r));
        }

        // Then the first key goes back to v1 (expected now: v3) and the second is deleted
        assertThat(reverts.get(key).before()).isEqualTo(v1);
        assertThat(reverts.get(key).latest()).isEqualTo(v3);
        assertThat(reverts.get(key).line().newImage()).isEqualTo(v1);
        assertThat(reverts.get(key).line().oldImage()).isEqualTo(v3);
        assertThat(reverts.get(other).deletes()).isTrue();
    }

    @Test
    void refusesAWindowThatEndsBeforeItStarts() {
        assertThatThrownBy(() -> new BacktrackBuilder(List.of("pk"), 10, 10, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends before it starts");
    }

    private static void put(
            Map<Map<String, AttributeValue>, Map<String, AttributeValue>> table,
            Map<String, AttributeValue> key,
            Map<String, AttributeValue> image) {
        if (image == null) {
            table.remove(key);
        } else {
            table.put(key, image);
        }
    }

    private static Map<String, AttributeValue> item(String pk, int v) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromN(Integer.toString(v)));
    }

    private static KeySchema keySchema(ChangeHistory history) {
        var first = history.lines.get(0).keys();
        return KeySchema.of(
                history.keyAttributes,
                history.keyAttributes.stream().map(a -> typeOf(first.get(a))).toList());
    }

    private static String typeOf(AttributeValue v) {
        return v.s() != null ? "S" : v.n() != null ? "N" : "B";
    }
}
