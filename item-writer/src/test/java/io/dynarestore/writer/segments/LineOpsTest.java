package io.dynarestore.writer.segments;

import static io.dynarestore.writer.segments.SegmentWork.item;
import static io.dynarestore.writer.segments.SegmentWork.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.vault.ExportLine;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
