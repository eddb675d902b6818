package io.dynarestore.core.vault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EveryMemberTest {

    /** A network stream between two packets: a few bytes per read, and nothing it can promise. */
    static final class Trickle extends FilterInputStream {
        private final int most;

        Trickle(InputStream in, int most) {
            super(in);
            this.most = most;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return super.read(b, off, Math.min(len, most));
        }

        @Override
        public int available() {
            return 0;
        }
    }

    static byte[] member(String... lines) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(bytes)) {
            for (String line : lines) {
                gz.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toByteArray();
    }

    @ParameterizedTest(name = "{0} bytes per read")
    @ValueSource(ints = {1, 7, 64, 1 << 16})
    void readsEveryMemberOfAFileWhoseStreamCannotSayWhatIsLeft(int bytesPerRead) throws IOException {
        // Given a data file of three gzip members (key slices), one of them of no line at all
        var file = new ByteArrayOutputStream();
        file.write(member("{\"Item\":{\"pk\":{\"S\":\"a\"}}}", "{\"Item\":{\"pk\":{\"S\":\"b\"}}}"));
        file.write(member());
        file.write(member("{\"Item\":{\"pk\":{\"S\":\"c\"}}}"));

        // When it is read through a stream that answers available() with 0, as a socket may
        var read = new ArrayList<String>();
        try (var reader = new DataFileReader(
                "three-members.json.gz",
                new Trickle(new ByteArrayInputStream(file.toByteArray()), bytesPerRead),
                null)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                read.add(line.item().get("pk").s());
            }
        }

        // Then the lines of every member are read, not only the first member's
        assertThat(read).isEqualTo(List.of("a", "b", "c"));
    }
}
