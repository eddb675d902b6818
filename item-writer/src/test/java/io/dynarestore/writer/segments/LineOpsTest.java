package io.dynarestore.writer.segments;

import static io.dynarestore.writer.segments.SegmentWork.item;
import static io.dynarestore.writer.segments.SegmentWork.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class LineOpsTest {

    @Test
    void writesABaseLinesItemWithItsKeyAndDigest() {
        // Given a base segment and a line of it
        var ops = new LineOps(SegmentWork.base(), null);

        // When the line becomes a write
        WriteOp op = ops.of(ExportLine.item(item("a", "1")), 1);

        // Then it puts the item under its key
        assertThat(op.image()).isEqualTo(item("a", "1"));
        assertThat(op.keys()).isEqualTo(key("a"));
        assertThat(op.key()).containsExactly(AttributeValue.fromS("a"));
        assertThat(op.digest()).isEqualTo(ItemDigest.of(item("a", "1")));
    }

    @Test
    void deletesADeltaKeyWithoutAnImageOnlyWhereTheDestinationMayHoldIt() {
        // Given a delete in a delta, for a destination that may hold the key and for one that cannot
        var delete = ExportLine.change(key("a"), item("a", "old"), null, 1);

        // Then the first deletes the key, the second skips the line
        WriteOp op = new LineOps(SegmentWork.delta(true), null).of(delete, 1);
        assertThat(op.delete()).isTrue();
        assertThat(op.digest()).isEqualTo(ItemDigest.ofDelete(key("a")));
        assertThat(new LineOps(SegmentWork.delta(false), null).of(delete, 1)).isNull();
    }

    @Test
    void writesOnlyTheImagesARecordFilterMatchesAndNeverDeletes() {
        // Given a record restore of the keys beginning with "keep"
        var ops = new LineOps(SegmentWork.records("keep"), null);

        // Then a matching image is written, another and a delete are skipped
        assertThat(ops.of(ExportLine.change(key("keep-1"), null, item("keep-1", "x"), 1), 1))
                .isNotNull();
        assertThat(ops.of(ExportLine.change(key("drop-1"), null, item("drop-1", "x"), 1), 2))
                .isNull();
        assertThat(ops.of(ExportLine.change(key("keep-2"), item("keep-2", "x"), null, 1), 3))
                .isNull();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"records", "base with a skip set"})
    void letsTheReaderPassOverUnparsedOnlyLinesItWouldSkipAnyway(String work) throws Exception {
        // Given a record restore of the keys beginning with "keep", or a base segment whose skip set
        // holds the keys beginning with "drop"
        var random = new Random(work.length());
        var superseded = new TreeSet<KeyHash>();
        for (int i = 0; i < 50; i++) {
            superseded.add(KeyHash.of(key("drop-" + i), List.of("pk")));
        }
        var hashes = new ByteArrayOutputStream();
        try (var out = new DataOutputStream(hashes)) {
            for (KeyHash h : superseded) {
                out.writeLong(h.hi());
                out.writeLong(h.lo());
            }
        }
        boolean records = work.equals("records");
        var ops = records
                ? new LineOps(SegmentWork.records("keep"), null)
                : new LineOps(
                        SegmentWork.base(),
                        SkipKeys.read(new ByteArrayInputStream(hashes.toByteArray()), superseded.size()));
        KeyPrefilter prefilter = ops.prefilter();
        assertThat(prefilter.member()).isEqualTo(records ? "Keys" : "Item");

        int passedOver = 0;
        for (int n = 0; n < 500; n++) {
            // When a random line's key is put to the prefilter
            String pk = (random.nextBoolean() ? "keep-" : "drop-") + random.nextInt(60);
            var image = item(pk, "v" + n);
            ExportLine line = !records
                    ? ExportLine.item(image)
                    : random.nextBoolean()
                            ? ExportLine.change(key(pk), null, image, n)
                            : ExportLine.change(key(pk), image, null, n);

            // Then a line it rejects is one the segment would have skipped
            if (!prefilter.test().mayPass(key(pk))) {
                passedOver++;
                assertThat(ops.of(line, n)).as(pk).isNull();
            } else if (records && line.newImage() != null || !records) {
                assertThat(ops.of(line, n)).as(pk).isNotNull();
            }
        }
        // and it does reject the lines of the keys the segment skips
        assertThat(passedOver).isGreaterThan(100);
    }

    @Test
    void readsEveryLineOfASegmentThatWritesEveryLine() {
        assertThat(new LineOps(SegmentWork.base(), null).prefilter()).isNull();
        assertThat(new LineOps(SegmentWork.delta(true), null).prefilter()).isNull();
    }

    @Test
    void expectsEachLinesOldImageOnlyInAStrictUndosSegment() {
        // Given a revert of "a" to "before" whose last known image is "latest", and a revert that recreates "b"
        var revert = ExportLine.change(key("a"), item("a", "latest"), item("a", "before"), 1);
        var recreate = ExportLine.change(key("b"), null, item("b", "before"), 1);

        // When a strict undo's segment and an ordinary one read them
        var strict = new LineOps(SegmentWork.delta(true).withConditions(), null);
        var plain = new LineOps(SegmentWork.delta(true), null);

        // Then only the strict one expects the old image (absent for the recreated key)
        assertThat(strict.of(revert, 1).expect()).isEqualTo(new WriteOp.Expectation(item("a", "latest")));
        assertThat(strict.of(recreate, 2).expect()).isEqualTo(new WriteOp.Expectation(null));
        assertThat(plain.of(revert, 1).expect()).isNull();
    }

    @Test
    void failsTheSegmentForALineWithoutItsMemberOrAKeyAttribute() {
        var base = new LineOps(SegmentWork.base(), null);
        assertThatThrownBy(() -> base.of(ExportLine.change(key("a"), null, item("a", "1"), 1), 7))
                .isInstanceOf(PermanentWriteException.class)
                .hasMessageContaining("line 7 has no Item member; it is not a full-export data file");
        assertThatThrownBy(() -> base.of(ExportLine.item(Map.of("v", AttributeValue.fromS("1"))), 8))
                .isInstanceOf(PermanentWriteException.class)
                .hasMessageContaining("line 8 lacks key attribute pk");
    }
}
