package io.dynarestore.core.vault;

import com.amazon.ion.IonException;
import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.system.IonReaderBuilder;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.DynamoJsonException;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Streams the lines of one gzip data file of a DynamoDB export, one {@link ExportLine} at a
 * time, never holding the file in memory. When the manifest states an MD5, the compressed bytes
 * are checked against it at the end of the file; a mismatch, a truncated gzip stream or a line
 * that is not DynamoDB JSON is a {@link CorruptDataFileException} that names the file and line.
 *
 * <p>A selective reader ({@link #selective}) reads the file as JSON Lines and parses only the lines
 * whose key its {@link KeyPrefilter} may want; the others are counted, found by a byte scan of their
 * key ({@link LineKeys}), and passed over unparsed, so they are not checked beyond their key.
 *
 * <p>A file named {@code *.ion.gz} is a native export in ION format ({@link IonLines}): each of its
 * top-level structs is a line, parsed in full; a selective reader then passes over those whose key its
 * prefilter does not want.
 */
public final class DataFileReader implements AutoCloseable {

    private final String name;
    private final String expectedMd5;
    private final InputStream raw;
    private final DigestInputStream digest;
    private final JsonParser parser;
    private final IonReader ion;
    private final KeyPrefilter ionPrefilter;
    private final LineBuffer lineBuffer;
    private final LineKeys lineKeys;
    private final KeyPrefilter.Test prefilter;
    private long lines;
    private long passedOver;
    private boolean done;

    public DataFileReader(String name, InputStream compressed, String expectedMd5) {
        this(name, compressed, expectedMd5, true);
    }

    /** A reader of an uncompressed file of lines (the planner's own spill files). */
    public static DataFileReader plain(String name, InputStream in) {
        return new DataFileReader(name, in, null, false);
    }

    /**
     * A reader of a gzip data file that passes over, unparsed, the lines whose key {@code prefilter}
     * does not want; {@link #next} returns the others. With no prefilter ({@code null}) it is the
     * full reader: every line parsed.
     */
    public static DataFileReader selective(
            String name, InputStream compressed, String expectedMd5, KeyPrefilter prefilter) {
        return new DataFileReader(name, compressed, expectedMd5, true, prefilter);
    }

    private DataFileReader(String name, InputStream in, String expectedMd5, boolean gzip) {
        this(name, in, expectedMd5, gzip, null);
    }

    private DataFileReader(String name, InputStream in, String expectedMd5, boolean gzip, KeyPrefilter prefilter) {
        this.name = name;
        this.expectedMd5 = expectedMd5;
        this.raw = in;
        try {
            // the inflater reads the stored file in chunks of its own buffer's size
            InputStream buffered = gzip ? in : new BufferedInputStream(in, 1 << 16);
            // MD5 costs a fifth of inflating: only where there is a checksum to check
            this.digest = expectedMd5 == null || expectedMd5.isBlank()
                    ? null
                    : new DigestInputStream(buffered, MessageDigest.getInstance("MD5"));
            InputStream stored = digest == null ? buffered : digest;
            InputStream inflated = gzip ? new GZIPInputStream(new EveryMember(stored), 1 << 16) : stored;
            boolean isIon = name.endsWith(".ion.gz") || name.endsWith(".ion");
            this.ion = isIon ? IonReaderBuilder.standard().build(inflated) : null;
            this.ionPrefilter = isIon ? prefilter : null;
            this.parser = prefilter == null && !isIon ? DynamoJson.parser(inflated) : null;
            this.lineBuffer = prefilter == null || isIon ? null : new LineBuffer(inflated);
            this.lineKeys = prefilter == null || isIon ? null : new LineKeys(prefilter.member(), prefilter.keyNames());
            this.prefilter = prefilter == null || isIon ? null : prefilter.test();
        } catch (IOException e) {
            throw new CorruptDataFileException(name + " is not a gzip file: " + e.getMessage(), e);
        } catch (JacksonIOException e) { // the parser reads ahead when it is made
            throw readFailure(e.getCause() != null ? e.getCause() : e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What reads one line of a JSON data file itself: the parser is on the line's START_OBJECT, to be left on its END_OBJECT. */
    public interface LineReader {
        void read(JsonParser p);
    }

    /** The next line (of a selective reader: the next its prefilter may want), or {@code null} after the last one. */
    public ExportLine next() {
        if (done) {
            return null;
        }
        return guarded(() -> ion != null ? nextIon() : lineBuffer != null ? nextSelected() : nextParsed(parser));
    }

    /**
     * Of a JSON data file read in full: hands the next line to {@code reader} instead of building it
     * (for a caller that turns the tokens into something else, such as CSV cells); {@code false} after
     * the last line. A damaged file fails as in {@link #next}, also when {@code reader} finds the line
     * is not DynamoDB JSON.
     *
     * @throws IllegalStateException for an ION file or a selective reader, which have no JSON tokens to hand
     */
    public boolean nextRaw(LineReader reader) {
        if (parser == null) {
            throw new IllegalStateException(name + " is not read as JSON in full; use next()");
        }
        if (done) {
            return false;
        }
        return guarded(() -> {
            JsonToken t = parser.nextToken();
            if (t == null) {
                finish();
                return false;
            }
            lines++;
            if (t != JsonToken.START_OBJECT) {
                throw new CorruptDataFileException(name + " line " + lines + " is not a JSON object");
            }
            reader.read(parser);
            return true;
        });
    }

    /** Whether {@link #nextRaw} may be used: a JSON data file read in full. */
    public boolean readsRaw() {
        return parser != null;
    }

    private interface Read<T> {
        T get() throws IOException;
    }

    /** Runs a read, turning what it meets into a corrupt file or an unavailable one, naming the file and line. */
    private <T> T guarded(Read<T> read) {
        try {
            return read.get();
        } catch (StreamConstraintsException e) {
            // a value far longer than a 400 KB DynamoDB item can hold: the file is not a backup of one
            throw new CorruptDataFileException(
                    name + " line " + Math.max(lines, 1) + " is larger than any DynamoDB " + "item: "
                            + e.getOriginalMessage(),
                    e);
        } catch (DynamoJsonException | StreamReadException e) {
            throw new CorruptDataFileException(name + " line " + Math.max(lines, 1) + ": " + e.getMessage(), e);
        } catch (JacksonIOException e) {
            throw readFailure(e.getCause() != null ? e.getCause() : e);
        } catch (UncheckedIOException e) {
            throw readFailure(e.getCause());
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    /** Passes over the next line without parsing it where the reader is selective; {@code false} at the end. */
    public boolean skip() {
        if (lineBuffer == null) {
            return next() != null;
        }
        try {
            if (!lineBuffer.next()) {
                finish();
                return false;
            }
            lines++;
            return true;
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    private ExportLine nextIon() {
        for (; ; ) {
            IonType type;
            try {
                type = ion.next();
            } catch (IonException e) {
                throw ionFailure(e);
            }
            if (type == null) {
                finish();
                return null;
            }
            lines++;
            if (type != IonType.STRUCT || ion.isNullValue()) {
                throw new CorruptDataFileException(name + " value " + lines + " is an ION " + type + ", not a struct");
            }
            ExportLine line;
            try {
                line = IonLines.line(ion);
            } catch (IonException e) {
                throw ionFailure(e);
            } catch (IllegalArgumentException e) {
                throw new CorruptDataFileException(name + " value " + lines + ": " + e.getMessage(), e);
            }
            if (ionPrefilter != null && !ionPrefilter.test().mayPass(keyOf(line))) {
                passedOver++;
                continue;
            }
            return line;
        }
    }

    /** The key a prefilter tests: the change's {@code Keys}, or the item's key attributes. */
    private Map<String, AttributeValue> keyOf(ExportLine line) {
        if (line.item() == null) {
            return line.keys();
        }
        var key = new LinkedHashMap<String, AttributeValue>();
        for (String k : ionPrefilter.keyNames()) {
            key.put(k, line.item().get(k));
        }
        return key;
    }

    private void closeIon() {
        try {
            ion.close();
        } catch (IOException ignored) {
            // nothing to do: the stream is discarded
        }
    }

    /** A broken connection under the ION reader is worth another try; anything else is a damaged file. */
    private RuntimeException ionFailure(IonException e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof IOException io) {
                return readFailure(io);
            }
        }
        return new CorruptDataFileException(name + " after value " + lines + " is not ION: " + e.getMessage(), e);
    }

    private ExportLine nextParsed(JsonParser p) {
        JsonToken t = p.nextToken();
        if (t == null) {
            finish();
            return null;
        }
        lines++;
        return readLine(p, t);
    }

    private ExportLine nextSelected() throws IOException {
        while (lineBuffer.next()) {
            lines++;
            byte[] b = lineBuffer.bytes();
            Map<String, AttributeValue> key = lineKeys.find(b, lineBuffer.start, lineBuffer.end);
            if (key != null && !prefilter.mayPass(key)) {
                passedOver++;
                continue;
            }
            try (JsonParser p = DynamoJson.parser(b, lineBuffer.start, lineBuffer.end - lineBuffer.start)) {
                ExportLine line = readLine(p, p.nextToken());
                if (p.nextToken() != null) {
                    throw new CorruptDataFileException(
                            name + " line " + lines + " holds more than one JSON object; a data file holds one a line");
                }
                return line;
            }
        }
        finish();
        return null;
    }

    private ExportLine readLine(JsonParser p, JsonToken first) {
        if (first != JsonToken.START_OBJECT) {
            throw new CorruptDataFileException(name + " line " + lines + " is not a JSON object");
        }
        var parts = new LinkedHashMap<String, Map<String, AttributeValue>>();
        String field;
        while ((field = p.nextName()) != null) {
            p.nextToken();
            parts.put(field, DynamoJson.readItem(p));
        }
        return ExportLine.of(parts);
    }

    private void finish() {
        done = true;
        verifyChecksum();
    }

    /** Lines a selective reader passed over unparsed, as its prefilter did not want their key. */
    public long passedOver() {
        return passedOver;
    }

    /** A damaged file is corrupt for good; a broken connection is worth another try. */
    private RuntimeException readFailure(Throwable cause) {
        if (cause instanceof LineBuffer.LineTooLongException) {
            return new CorruptDataFileException(name + " line " + (lines + 1) + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof EOFException || cause instanceof ZipException) {
            return new CorruptDataFileException(
                    name + " is truncated or not gzip after line " + lines + ": " + cause.getMessage(), cause);
        }
        return new DataFileUnavailableException(name + " could not be read after line " + lines + ": " + cause, cause);
    }

    /** Lines read so far. */
    public long lines() {
        return lines;
    }

    private void verifyChecksum() {
        if (digest == null) {
            return;
        }
        try {
            // the gzip reader may stop before the end of the object; the checksum covers all of it
            byte[] buffer = new byte[8192];
            while (digest.read(buffer) >= 0) {
                // drain
            }
        } catch (IOException e) {
            throw readFailure(e);
        }
        String actual =
                Base64.getEncoder().encodeToString(digest.getMessageDigest().digest());
        if (!actual.equals(expectedMd5)) {
            throw new CorruptDataFileException(name + " has MD5 " + actual + " but its manifest says " + expectedMd5
                    + "; the file was changed or damaged after the export");
        }
    }

    @Override
    public void close() {
        try {
            if (parser != null) {
                parser.close();
            }
            if (ion != null) {
                closeIon();
            }
        } finally {
            try {
                raw.close();
            } catch (IOException ignored) {
                // nothing to do: the stream is discarded
            }
        }
    }
}
