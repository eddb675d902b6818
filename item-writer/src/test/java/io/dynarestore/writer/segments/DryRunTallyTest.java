package io.dynarestore.writer.segments;

import static io.dynarestore.writer.segments.SegmentWork.item;
import static io.dynarestore.writer.segments.SegmentWork.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.status.Diff;
import io.dynarestore.core.codec.ItemDigest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class DryRunTallyTest {

    static WriteOp put(String pk, String value) {
        return new WriteOp(List.of(AttributeValue.fromS(pk)), key(pk), item(pk, value), ItemDigest.of(item(pk, value)));
    }

    static WriteOp delete(String pk) {
        return new WriteOp(List.of(AttributeValue.fromS(pk)), key(pk), null, ItemDigest.ofDelete(key(pk)));
    }

    @Test
    void countsWhatABatchWouldDoAgainstTheItemsThere() {
        // Given a table holding b (equal), c (different) and d; and a batch that creates a, writes b and c, deletes d
        // and e
        Map<List<AttributeValue>, Map<String, AttributeValue>> current = Map.of(
                List.of(AttributeValue.fromS("b")), item("b", "1"),
                List.of(AttributeValue.fromS("c")), item("c", "old"),
                List.of(AttributeValue.fromS("d")), item("d", "1"));
        var tally = WriteTally.of(null, SegmentWork.base());

        // When the dry run counts it
        DryRunTally.count(
                List.of(put("a", "1"), put("b", "1"), put("c", "new"), delete("d"), delete("e")), current, tally);

        // Then one create, one overwrite of v, one equal, one delete and one skipped delete
        Diff diff = tally.diff();
        assertThat(diff.create()).isEqualTo(1);
        assertThat(diff.overwrite()).isEqualTo(1);
        assertThat(diff.equal()).isEqualTo(1);
        assertThat(diff.delete()).isEqualTo(1);
        assertThat(diff.skipped()).isEqualTo(1);
        assertThat(diff.samples())
                .extracting(Diff.Sample::change)
                .containsExactly(Diff.Change.CREATE, Diff.Change.EQUAL, Diff.Change.OVERWRITE, Diff.Change.DELETE);
        assertThat(diff.samples().get(2).changedAttributes()).containsExactly("v");
    }

    @Test
    void countsAStrictUndosKeysThatHoldNeitherTheirTargetNorTheirExpectedImageAsConflicts() {
        // Given reverts of a (still as expected), b (written since), c (at its target already) and d (deleted since)
        Map<List<AttributeValue>, Map<String, AttributeValue>> current = Map.of(
                List.of(AttributeValue.fromS("a")), item("a", "latest"),
                List.of(AttributeValue.fromS("b")), item("b", "theirs"),
                List.of(AttributeValue.fromS("c")), item("c", "before"));
        var tally = WriteTally.of(null, SegmentWork.delta(true).withConditions());

        // When the dry run counts them
        DryRunTally.count(
                List.of(
                        put("a", "before").expecting(item("a", "latest")),
                        put("b", "before").expecting(item("b", "latest")),
                        put("c", "before").expecting(item("c", "latest")),
                        put("d", "before").expecting(item("d", "latest"))),
                current,
                tally);

        // Then a would be overwritten, c is equal, and b and d are conflicts left as they are
        assertThat(tally.diff().overwrite()).isEqualTo(1);
        assertThat(tally.diff().equal()).isEqualTo(1);
        assertThat(tally.conflicts).isEqualTo(2);
        assertThat(tally.conflicts().samples())
                .extracting(c -> c.key())
                .containsExactly("{\"pk\":{\"S\":\"b\"}}", "{\"pk\":{\"S\":\"d\"}}");
    }

    @Test
    void namesEveryAttributeAddedRemovedOrChanged() {
        var before = Map.of(
                "pk",
                AttributeValue.fromS("a"),
                "gone",
                AttributeValue.fromN("1"),
                "same",
                AttributeValue.fromS("x"),
                "changed",
                AttributeValue.fromS("1"));
        var after = Map.of(
                "pk",
                AttributeValue.fromS("a"),
                "added",
                AttributeValue.fromBool(true),
                "same",
                AttributeValue.fromS("x"),
                "changed",
                AttributeValue.fromS("2"));
        assertThat(DryRunTally.changed(before, after)).containsExactly("added", "changed", "gone");
    }
}
