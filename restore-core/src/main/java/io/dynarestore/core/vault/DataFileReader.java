package io.dynarestore.core.vault;

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
 */
public final class DataFileReader implements AutoCloseable {

    private final String name;
    private final String expectedMd5;
    private final InputStream raw;
    private final DigestInputStream digest;
    private final JsonParser parser;
    private long lines;
    private boolean done;

    public DataFileReader(String name, InputStream compressed, String expectedMd5) {
        this(name, compressed, expectedMd5, true);
    }

    /** A reader of an uncompressed file of lines (the planner's own spill files). */
    public static DataFileReader plain(String name, InputStream in) {
        return new DataFileReader(name, in, null, false);
    }

    private DataFileReader(String name, InputStream in, String expectedMd5, boolean gzip) {
        this.name = name;
        this.expectedMd5 = expectedMd5;
        this.raw = in;
        try {
            this.digest = new DigestInputStream(new BufferedInputStream(in, 1 << 16), MessageDigest.getInstance("MD5"));
            this.parser = DynamoJson.parser(gzip ? new GZIPInputStream(digest, 1 << 16) : digest);
        } catch (IOException e) {
            throw new CorruptDataFileException(name + " is not a gzip file: " + e.getMessage(), e);
        } catch (JacksonIOException e) { // the parser reads ahead when it is made
            throw readFailure(e.getCause() != null ? e.getCause() : e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next line, or {@code null} after the last one. */
    public ExportLine next() {
        if (done) {
            return null;
        }
        try {
            JsonToken t = parser.nextToken();
            if (t == null) {
                done = true;
                verifyChecksum();
                return null;
            }
            lines++;
            if (t != JsonToken.START_OBJECT) {
                throw new CorruptDataFileException(name + " line " + lines + " is not a JSON object");
            }
            var parts = new LinkedHashMap<String, Map<String, AttributeValue>>();
            String field;
            while ((field = parser.nextName()) != null) {
                parser.nextToken();
                parts.put(field, DynamoJson.readItem(parser));
            }
            return ExportLine.of(parts);
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
        }
    }

    /** A damaged file is corrupt for good; a broken connection is worth another try. */
    private RuntimeException readFailure(Throwable cause) {
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
        if (expectedMd5 == null || expectedMd5.isBlank()) {
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
            parser.close();
        } finally {
            try {
                raw.close();
            } catch (IOException ignored) {
                // nothing to do: the stream is discarded
            }
        }
    }
}
