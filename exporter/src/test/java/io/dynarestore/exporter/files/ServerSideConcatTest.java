package io.dynarestore.exporter.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerSideConcatTest {

    static final long MIB = 1L << 20;

    @Test
    void takesPartsOfAtLeastFiveMebibytesBeforeALastOfAnySize() {
        assertThat(ServerSideConcat.fits(List.of(5 * MIB, 9 * MIB, 1L))).isTrue();
        assertThat(ServerSideConcat.fits(List.of(0L)))
                .as("one object, even empty")
                .isTrue();
        assertThat(ServerSideConcat.fits(List.of(5 * MIB, 5 * MIB - 1, 7 * MIB)))
                .as("a part under the minimum before the last")
                .isFalse();
        assertThat(ServerSideConcat.fits(List.of(ServerSideConcat.MAX_PART + 1)))
                .as("a part over 5 GiB")
                .isFalse();
        assertThat(ServerSideConcat.fits(List.of())).isFalse();
    }
}
