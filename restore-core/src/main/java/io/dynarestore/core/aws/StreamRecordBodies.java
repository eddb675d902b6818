package io.dynarestore.core.aws;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;

/**
 * The keys and images of the records of a DynamoDB Streams {@code GetRecords} answer as the service
 * sent them: the bytes of each record's {@code Keys}, {@code OldImage} and {@code NewImage}, which are
 * already DynamoDB JSON, the form of an incremental export's line. A capture that takes them needs
 * neither encode again what the SDK decoded nor have the SDK decode the images at all. Installed on a
 * Streams client as an interceptor, it keeps the last answer's bodies for the thread that made the
 * call (the synchronous client answers on the caller's thread); {@link #take()} hands them over once.
 *
 * <p>Rules: when every record of an answer was cut, the SDK is handed the answer without the
 * records' {@code Keys}, {@code OldImage} and {@code NewImage} (their bytes are in the bodies), so
 * the {@code Record}s it returns carry sequence numbers, times and sizes but no keys or images; the
 * {@code x-amz-crc32} the service sent is checked here against the bytes as sent, and a mismatch is
 * the SDK's retryable {@link Crc32MismatchException}. When an answer cannot be cut, it goes to the
 * SDK as it came and there are no bodies. So a client with this interceptor is for captures only, and
 * a caller checks each {@link Body#sequenceNumber()} against the SDK's record.
 */
public final class StreamRecordBodies implements ExecutionInterceptor {

    /** The interceptor to add to a {@code DynamoDbStreamsClient}. */
    public static final StreamRecordBodies INTERCEPTOR = new StreamRecordBodies();

    private static final ThreadLocal<List<Body>> LAST = new ThreadLocal<>();
    private static final String CRC32_HEADER = "x-amz-crc32";
    private static final ExecutionAttribute<String> SENT_CRC32 = new ExecutionAttribute<>("StreamRecordBodies.crc32");

    /** One record's position and the members of its export line ({@code "Keys":{..},"OldImage":{..},...}). */
    public record Body(String sequenceNumber, byte[] members) {
    }

    private StreamRecordBodies() {
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof GetRecordsRequest) {
            LAST.remove();
        }
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        SdkHttpResponse response = context.httpResponse();
        if (!(context.request() instanceof GetRecordsRequest) || response.statusCode() != 200) {
            return response;
        }
        // checked here against the bytes as sent, since the SDK would check it against the answer it is handed
        var crc = response.firstMatchingHeader(CRC32_HEADER);
        if (crc.isEmpty()) {
            return response;
        }
        attributes.putAttribute(SENT_CRC32, crc.get());
        return response.toBuilder().removeHeader(CRC32_HEADER).build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        Optional<InputStream> body = context.responseBody();
        if (!(context.request() instanceof GetRecordsRequest) || body.isEmpty()
                || context.httpResponse().statusCode() != 200) {
            return body;
        }
        byte[] bytes;
        try (InputStream in = body.get()) {
            bytes = in.readAllBytes(); // at most 1 MB: GetRecords answers no more
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String sent = attributes.getAttribute(SENT_CRC32);
        if (sent != null) {
            var crc = new CRC32();
            crc.update(bytes);
            if (!Long.toString(crc.getValue()).equals(sent.trim())) {
                throw Crc32MismatchException.builder().message("GetRecords answer's CRC32 " + crc.getValue()
                        + " is not the x-amz-crc32 sent, " + sent).build();
            }
        }
        Cut cut;
        try {
            cut = cut(bytes);
        } catch (RuntimeException e) {
            LAST.set(List.of()); // not the JSON we know: the SDK reads it all, and the caller encodes the records
            return Optional.of(new ByteArrayInputStream(bytes));
        }
        LAST.set(cut.bodies());
        return Optional.of(new ByteArrayInputStream(cut.withoutImages()));
    }

    /** The bodies of the last GetRecords answered on this thread, in order; empty when there is none (or no JSON). */
    public static List<Body> take() {
        List<Body> last = LAST.get();
        LAST.remove();
        return last == null ? List.of() : last;
    }

    /** An answer's record bodies, and the answer without its records' keys and images. */
    record Cut(List<Body> bodies, byte[] withoutImages) {
    }

    /** The bodies of an answer's records, in order. */
    static List<Body> parse(byte[] json) {
        return cut(json).bodies();
    }

    /**
     * Cuts the answer by its structure only: a scan that follows objects, arrays and strings (with
     * their escapes) without decoding a value, several times cheaper than tokenizing the images.
     */
    static Cut cut(byte[] json) {
        var bodies = new ArrayList<Body>();
        var images = new ArrayList<int[]>(); // the members the SDK is not handed: Keys, OldImage, NewImage
        var scan = new Scan(json);
        scan.objectMembers(scan.skipSpace(0), (nameAt, nameEnd, at) -> {
            if (!scan.named(nameAt, nameEnd, RECORDS)) {
                return scan.skipValue(at);
            }
            return scan.arrayElements(at, element -> {
                bodies.add(record(scan, element, images));
                return scan.skipValue(element);
            });
        });
        return new Cut(bodies, without(json, images));
    }

    /**
     * {@code json} without the members {@code cuts} name (each {from, to} of a name through its value),
     * each with one comma: the one before it when that is still there, else the one after it.
     */
    private static byte[] without(byte[] json, List<int[]> cuts) {
        var out = new java.io.ByteArrayOutputStream(json.length);
        int copied = 0;
        for (int[] c : cuts) {
            int from = c[0];
            int to = c[1];
            int before = from - 1;
            while (before >= copied && isSpace(json[before])) {
                before--;
            }
            if (before >= copied && json[before] == ',') {
                from = before;
            } else {
                int after = to;
                while (after < json.length && isSpace(json[after])) {
                    after++;
                }
                if (after < json.length && json[after] == ',') {
                    to = after + 1;
                }
            }
            out.write(json, copied, from - copied);
            copied = to;
        }
        out.write(json, copied, json.length - copied);
        return out.toByteArray();
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private static Body record(Scan scan, int at, List<int[]> images) {
        String[] sequence = new String[1];
        int[][] parts = new int[3][];
        scan.objectMembers(at, (nameAt, nameEnd, value) -> {
            if (!scan.named(nameAt, nameEnd, DYNAMODB)) {
                return scan.skipValue(value);
            }
            return scan.objectMembers(value, (fieldAt, fieldEnd, v) -> {
                int end = scan.skipValue(v);
                if (scan.named(fieldAt, fieldEnd, SEQUENCE_NUMBER)) {
                    sequence[0] = scan.string(v, end);
                } else if (scan.named(fieldAt, fieldEnd, KEYS_NAME)) {
                    parts[0] = scan.objectRange(v, end);
                    images.add(new int[]{fieldAt, end});
                } else if (scan.named(fieldAt, fieldEnd, OLD_IMAGE_NAME)) {
                    parts[1] = scan.objectRange(v, end);
                    images.add(new int[]{fieldAt, end});
                } else if (scan.named(fieldAt, fieldEnd, NEW_IMAGE_NAME)) {
                    parts[2] = scan.objectRange(v, end);
                    images.add(new int[]{fieldAt, end});
                }
                return end;
            });
        });
        if (sequence[0] == null || parts[0] == null) {
            throw new IllegalArgumentException("a record without SequenceNumber or Keys");
        }
        byte[] json = scan.json;
        var out = new java.io.ByteArrayOutputStream(256);
        out.writeBytes(KEYS);
        out.write(json, parts[0][0], parts[0][1] - parts[0][0]);
        if (parts[1] != null) {
            out.writeBytes(OLD_IMAGE);
            out.write(json, parts[1][0], parts[1][1] - parts[1][0]);
        }
        if (parts[2] != null) {
            out.writeBytes(NEW_IMAGE);
            out.write(json, parts[2][0], parts[2][1] - parts[2][0]);
        }
        return new Body(sequence[0], out.toByteArray());
    }

    private static final byte[] RECORDS = quoted("Records");
    private static final byte[] DYNAMODB = quoted("dynamodb");
    private static final byte[] SEQUENCE_NUMBER = quoted("SequenceNumber");
    private static final byte[] KEYS_NAME = quoted("Keys");
    private static final byte[] OLD_IMAGE_NAME = quoted("OldImage");
    private static final byte[] NEW_IMAGE_NAME = quoted("NewImage");
    private static final byte[] KEYS = "\"Keys\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OLD_IMAGE = ",\"OldImage\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW_IMAGE = ",\"NewImage\":".getBytes(StandardCharsets.US_ASCII);

    private static byte[] quoted(String name) {
        return ("\"" + name + "\"").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * What is done with each member (where its quoted name starts and ends, where its value starts);
     * returns where the value ends. Names are compared as bytes, never decoded.
     */
    private interface Member {
        int at(int nameAt, int nameEnd, int value);
    }

    /** What is done with each element of an array (where it starts); returns where it ends. */
    private interface Element {
        int at(int start);
    }

    /** Bytes that end a run outside strings: a quote or a bracket. */
    private static final byte[] STRUCTURE = new byte[256];
    /** Bytes that end a run inside a string: its closing quote or a backslash. */
    private static final byte[] IN_STRING = new byte[256];

    static {
        for (char c : "\"{}[]".toCharArray()) {
            STRUCTURE[c] = 1;
        }
        IN_STRING['"'] = 1;
        IN_STRING['\\'] = 1;
    }

    /** A structural scan of JSON bytes: positions only, no values decoded but names and the one string asked for. */
    private static final class Scan {
        final byte[] json;

        Scan(byte[] json) {
            this.json = json;
        }

        int skipSpace(int i) {
            while (i < json.length && (json[i] == ' ' || json[i] == '\n' || json[i] == '\r' || json[i] == '\t')) {
                i++;
            }
            return i;
        }

        int objectMembers(int i, Member member) {
            i = expect(skipSpace(i), '{');
            i = skipSpace(i);
            if (json[i] == '}') {
                return i + 1;
            }
            while (true) {
                int nameAt = i;
                int nameEnd = skipString(i);
                i = expect(skipSpace(nameEnd), ':');
                i = skipSpace(member.at(nameAt, nameEnd, skipSpace(i)));
                if (json[i] == ',') {
                    i = skipSpace(i + 1);
                } else {
                    return expect(i, '}');
                }
            }
        }

        int arrayElements(int i, Element element) {
            i = skipSpace(expect(skipSpace(i), '['));
            if (json[i] == ']') {
                return i + 1;
            }
            while (true) {
                i = skipSpace(element.at(skipSpace(i)));
                if (json[i] == ',') {
                    i = skipSpace(i + 1);
                } else {
                    return expect(i, ']');
                }
            }
        }

        /** Where the value starting at {@code i} ends (one past it). */
        int skipValue(int i) {
            byte c = json[i];
            if (c == '"') {
                return skipString(i);
            }
            if (c == '{' || c == '[') {
                byte[] b = json;
                int depth = 0;
                while (true) {
                    while (STRUCTURE[b[i] & 0xff] == 0) {
                        i++; // the bytes between strings and brackets, which most images are not
                    }
                    c = b[i];
                    if (c == '"') {
                        i = skipString(i);
                        continue;
                    }
                    if (c == '{' || c == '[') {
                        depth++;
                    } else if (--depth == 0) {
                        return i + 1;
                    }
                    i++;
                }
            }
            while (i < json.length && json[i] != ',' && json[i] != '}' && json[i] != ']' && json[i] != ' '
                    && json[i] != '\n') {
                i++; // a number, true, false or null
            }
            return i;
        }

        int skipString(int i) {
            expect(i, '"');
            byte[] b = json;
            i++;
            while (true) {
                while (IN_STRING[b[i] & 0xff] == 0) {
                    i++;
                }
                if (b[i] == '"') {
                    return i + 1;
                }
                i += 2; // a backslash and the byte it escapes
            }
        }

        /** Whether the quoted name in [{@code at}, {@code end}) is {@code quoted}, byte for byte (no escapes in ours). */
        boolean named(int at, int end, byte[] quoted) {
            return java.util.Arrays.equals(json, at, end, quoted, 0, quoted.length);
        }

        String string(int start, int end) {
            if (json[start] != '"') {
                throw new IllegalArgumentException("expected a string at " + start);
            }
            return new String(json, start + 1, end - start - 2, StandardCharsets.UTF_8);
        }

        /** The object's bytes as {from, to}; null for an empty one (no image). */
        int[] objectRange(int start, int end) {
            if (json[start] != '{') {
                throw new IllegalArgumentException("expected an object at " + start);
            }
            return skipSpace(start + 1) == end - 1 ? null : new int[]{start, end};
        }

        int expect(int i, char c) {
            if (i >= json.length || json[i] != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            return i + 1;
        }
    }
}
