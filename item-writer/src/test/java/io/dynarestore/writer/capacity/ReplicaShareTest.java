package io.dynarestore.writer.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaShareTest {

    @Test
    void isTheShareOfSegmentPartitionsTheReplicaOwnsAndFollowsRebalances() {
        var share = new ReplicaShare();
        share.totalPartitions(24);
        share.assigned(8);
        assertThat(share.share()).isEqualTo(8 / 24.0);

        // a replica died: its partitions move here
        share.assigned(4);
        assertThat(share.share()).isEqualTo(0.5);

        // a replica joined: some move away
        share.revoked(6);
        assertThat(share.share()).isEqualTo(0.25);
    }
}
