package io.dynarestore.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class RestoreTagsTest {

    @Test
    void letsTheRequestsTagsReplaceTheBackupsTagsOfTheSameKeyAndAlwaysEndsWithTheRestoreTag() {
        // Given a backup tagged a=1, b=2 and a request asking for b=3
        var backupTags = List.of(
                Tag.builder().key("a").value("1").build(),
                Tag.builder().key("b").value("2").build());

        // When the new table's tags are merged
        var tags = RestoreTags.of("r-9", backupTags, Map.of("b", "3"));

        // Then the request wins where both name a key, and the restore's own tag comes last
        assertThat(tags)
                .extracting(Tag::key, Tag::value)
                .containsExactly(tuple("a", "1"), tuple("b", "3"), tuple(RestoreTags.RESTORE_TAG, "r-9"));
    }
}
