package io.dynarestore.writer.segments;

import static io.dynarestore.writer.segments.SegmentWork.item;
import static io.dynarestore.writer.segments.SegmentWork.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.status.Diff;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class WriteTallyTest {

    static WriteOp put(int i) {
        String pk = "k" + i;
        return new WriteOp(List.of(AttributeValue.fromS(pk)), key(pk), item(pk, "v"), ItemDigest.of(item(pk, "v")));
    }

    @Test
    void resumesFromACheckpointWithItsCountsAndChecksums() {
        // Given a tally that applied three writes and was checkpointed after line 3
        var work = SegmentWork.base();
        var first = WriteTally.of(null, work);
        for (int i = 0; i < 3; i++) {
            first.sourceChecksum += put(i).digest();
            first.applied(put(i));
            first.written++;
        }
        Checkpoint checkpoint = Checkpoint.of(first.checkpoint(work, 3).toJson(), "r1", 0);

        // When another owner resumes from it
        var resumed = WriteTally.of(checkpoint, work);

        // Then it starts with the same counts and checksums
        assertThat(resumed.counts()).isEqualTo(first.counts());
        assertThat(resumed.check(3, 3).sourceChecksum())
                .isEqualTo(first.check(3, 3).sourceChecksum())
                .isEqualTo(first.check(3, 3).appliedChecksum());
    }

    @Test
    void countsAConflictAsSkippedAndTakesItsImageOutOfTheSourceChecksum() {
        // Given a strict undo's segment of three lines, read into the source checksum
        var work = SegmentWork.delta(true).withConditions();
        var tally = WriteTally.of(null, work);
        for (int i = 0; i < 3; i++) {
            tally.sourceChecksum += put(i).digest();
        }

        // When two are applied and the third's key holds an image written since
        tally.applied(put(0));
        tally.written++;
        tally.applied(put(1));
        tally.written++;
        tally.conflicted(put(2), item("k2", "theirs"));

        // Then every line is accounted for, the checksums agree, and the conflict carries both images
        assertThat(tally.counts().accounted()).isEqualTo(3);
        assertThat(tally.check(3, 3).appliedChecksum())
                .isEqualTo(tally.check(3, 3).sourceChecksum());
        var conflicts = tally.conflicts();
        assertThat(conflicts.count()).isEqualTo(1);
        assertThat(conflicts.samples()).singleElement().satisfies(c -> {
            assertThat(c.before()).contains("\"v\"");
            assertThat(c.latest()).contains("theirs");
        });
        assertThat(WriteTally.of(Checkpoint.of(tally.checkpoint(work, 3).toJson(), "r1", 0), work).conflicts)
                .as("a resumed segment keeps its conflict count")
                .isEqualTo(1);
        assertThat(WriteTally.of(null, work).conflicts()).isNull();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void samplesTheAppliedKeysUniformly(int seed) {
        // Given 200 segments of 10 applied writes each (the sampler is seeded by restore and segment)
        var picks = new HashMap<String, Integer>();
        for (int segment = 0; segment < 200; segment++) {
            var work = SegmentDispatched.of("r" + seed, segment, 200, SegmentWork.FILE, SegmentWork.TARGET);
            var tally = WriteTally.of(null, work);
            for (int i = 0; i < 10; i++) {
                tally.applied(put(i));
            }
            // When each keeps its two keys to read back
            var check = tally.check(10, 10);
            assertThat(check.readBack()).hasSize(WriteTally.READ_BACK);
            check.readBack().forEach(k -> picks.merge(k.key(), 1, Integer::sum));
            // Then a put's sample carries its image's digest
            assertThat(check.readBack()).allSatisfy(k -> assertThat(k.digest()).hasSize(16));
        }

        // Then every key is picked about as often as any other (400 picks over 10 keys)
        assertThat(picks).hasSize(10);
        assertThat(picks.values()).allSatisfy(n -> assertThat(n).isBetween(15, 70));
        assertThat(picks).containsKey(DynamoJson.toJson(key("k9")));
    }

    @Test
    void keepsAtMostFiveSamplesOfEachKindOfChange() {
        var tally = WriteTally.of(null, SegmentWork.base());
        for (int i = 0; i < 9; i++) {
            tally.sample(Diff.Change.CREATE, Map.of("pk", AttributeValue.fromS("" + i)), null);
        }
        assertThat(tally.diff().samples()).hasSize(Diff.SAMPLES_PER_KIND);
    }
}
