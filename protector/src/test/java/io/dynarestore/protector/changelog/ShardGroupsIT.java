package io.dynarestore.protector.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.ExportMetadata.ShardGroup;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.S3Server;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.Shard;

/** Which group reads which shard: the same answer in every group, and for good once a shard is named. */
class ShardGroupsIT {

    private static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1";
    private static S3Server s3;
    private static final VaultLayout LAYOUT = new VaultLayout("vault", "");

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    static Shard shard(String id, String parent) {
        return Shard.builder().shardId(id).parentShardId(parent).build();
    }

    /** A shard id whose own hash falls in {@code group} of 3. */
    static String idInGroup(String stem, int group) {
        for (int i = 0; ; i++) {
            String id = stem + i;
            if (Math.floorMod(id.hashCode(), 3) == group) {
                return id;
            }
        }
    }

    ShardGroups group(String table, int index) {
        return new ShardGroups(s3.client(), LAYOUT, "000000000000", "us-east-1", table, new ShardGroup(index, 3));
    }

    @Test
    void aChildIsReadByItsParentsGroupAndStaysThereAfterTheParentIsTrimmed() {
        // Given a root shard whose hash is group 1, its child whose own hash is group 2, and a root of group 0
        String root = idInGroup("shardId-root-", 1);
        String child = idInGroup("shardId-child-", 2);
        String other = idInGroup("shardId-other-", 0);
        var listed = List.of(shard(root, null), shard(child, root), shard(other, null));
        var g0 = group("lineage", 0);
        var g1 = group("lineage", 1);
        var g2 = group("lineage", 2);

        // When group 0 lists them, and then every group lists them
        assertThat(g0.mine(ARN, listed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(other);

        // Then the child is read with its parent, by group 1 only
        assertThat(g1.mine(ARN, listed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(root, child);
        assertThat(g2.mine(ARN, listed, Instant.now())).isEmpty();

        // and when the stream has trimmed the parent, the child stays in group 1, not in its own hash's group 2,
        // for the groups that read it before and for new captures of them
        var trimmed = List.of(shard(child, root), shard(other, null));
        assertThat(g0.mine(ARN, trimmed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(other);
        assertThat(group("lineage", 1).mine(ARN, trimmed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(child);
        assertThat(group("lineage", 2).mine(ARN, trimmed, Instant.now())).isEmpty();
        // and a capture of group 0 that starts again (another replica) keeps the names already given
        assertThat(group("lineage", 0).mine(ARN, trimmed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(other);
        assertThat(group("lineage", 1).mine(ARN, trimmed, Instant.now()))
                .extracting(Shard::shardId)
                .containsExactly(child);
    }

    @Test
    void aGroupAppliesTheRuleItselfToShardsGroupZeroHasNotNamedYet() {
        // Given group 0 has named a root, and a child of it appears that group 0 has not listed yet
        String root = idInGroup("shardId-r-", 2);
        String child = idInGroup("shardId-c-", 1);
        group("fresh", 0).mine(ARN, List.of(shard(root, null)), Instant.now());

        // When group 2 lists both
        var mine = group("fresh", 2).mine(ARN, List.of(shard(root, null), shard(child, root)), Instant.now());

        // Then it reads the child with its parent
        assertThat(mine).extracting(Shard::shardId).containsExactly(root, child);
    }
}
