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
 * The records of a DynamoDB Streams {@code GetRecords} answer as the service sent them: each record's
 * sequence number, second and size, and the bytes of its {@code Keys}, {@code OldImage} and
 * {@code NewImage}, which are already DynamoDB JSON, the form of an incremental export's line. A
 * capture that takes them needs neither encode again what the SDK decoded nor have the SDK decode
 * the records at all. Installed on a Streams client as an interceptor, it keeps the last answer's
 * bodies for the thread that made the call (the synchronous client answers on the caller's thread);
 * {@link #take()} hands them over once.
 *
 * <p>Rules: when every record of an answer was cut, the SDK is handed the answer with an empty
 * {@code Records} array (the records are in the bodies, which are then the answer's records, in
 * order); the {@code x-amz-crc32} the service sent is checked here against the bytes as sent, and a
 * mismatch is the SDK's retryable {@link Crc32MismatchException}. When an answer cannot be cut (not
 * the JSON we know, a record without its sequence number, keys or time), it goes to the SDK as it came
 * and {@link #take()} has nothing: the SDK's records are the answer's. So a client with this
 * interceptor is for captures only.
 */
public final class StreamRecordBodies implements ExecutionInterceptor {

    /** The interceptor to add to a {@code DynamoDbStreamsClient}. */
    public static final StreamRecordBodies INTERCEPTOR = new StreamRecordBodies();

    private static final ThreadLocal<List<Body>> LAST = new ThreadLocal<>();
    private static final String CRC32_HEADER = "x-amz-crc32";
    private static final ExecutionAttribute<String> SENT_CRC32 = new ExecutionAttribute<>("StreamRecordBodies.crc32");

    /**
     * One record: its position in its shard, the second of its {@code ApproximateCreationDateTime}
     * (rounded down), its {@code SizeBytes} (0 when not sent), and the members of its export line
     * ({@code "Keys":{..},"OldImage":{..},"NewImage":{..}}, an empty image left out).
     */
    public record Body(String sequenceNumber, long second, long sizeBytes, byte[] members) {}

    private StreamRecordBodies() {}

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
    public Optional<InputStream> modifyHttpResponseContent(
            Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Optional<InputStream> body = context.responseBody();
        if (!(context.request() instanceof GetRecordsRequest)
                || body.isEmpty()
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
                throw Crc32MismatchException.builder()
                        .message(
                                "GetRecords answer's CRC32 " + crc.getValue() + " is not the x-amz-crc32 sent, " + sent)
                        .build();
            }
        }
        Cut cut;
        try {
            cut = cut(bytes);
        } catch (RuntimeException e) {
            return Optional.of(new ByteArrayInputStream(bytes)); // not the JSON we know: the SDK reads it all
        }
        LAST.set(cut.bodies());
        return Optional.of(new ByteArrayInputStream(cut.withoutRecords()));
    }

    /**
     * The records of the last GetRecords answered on this thread, in order, when its answer was cut
     * (the SDK's answer then has none); empty when there was no answer or it went to the SDK whole.
     */
    public static Optional<List<Body>> take() {
        List<Body> last = LAST.get();
        LAST.remove();
        return Optional.ofNullable(last);
    }

    /** An answer's records, and the answer with an empty {@code Records} array. */
    record Cut(List<Body> bodies, byte[] withoutRecords) {}

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
        int[] array = new int[2]; // where the Records array starts and ends
        var scan = new JsonScan(json);
        scan.objectMembers(scan.skipSpace(0), (nameAt, nameEnd, at) -> {
            if (!scan.named(nameAt, nameEnd, RECORDS)) {
                return scan.skipValue(at);
            }
            array[0] = at;
            array[1] = scan.arrayElements(at, element -> record(scan, element, bodies));
            return array[1];
        });
        if (array[1] == 0) {
            return new Cut(bodies, json);
        }
        // the answer with "Records":[]: what the SDK is left to read is the next iterator
        byte[] rest = new byte[json.length - (array[1] - array[0]) + 2];
        System.arraycopy(json, 0, rest, 0, array[0]);
        rest[array[0]] = '[';
        rest[array[0] + 1] = ']';
        System.arraycopy(json, array[1], rest, array[0] + 2, json.length - array[1]);
        return new Cut(bodies, rest);
    }

    /** Reads the record at {@code at} into {@code bodies}; returns where it ends. */
    private static int record(JsonScan scan, int at, List<Body> bodies) {
        String[] sequence = new String[1];
        long[] numbers = {Long.MIN_VALUE, 0}; // second, size
        int[][] parts = new int[3][];
        int end = scan.objectMembers(at, (nameAt, nameEnd, value) -> {
            if (!scan.named(nameAt, nameEnd, DYNAMODB)) {
                return scan.skipValue(value);
            }
            return scan.objectMembers(value, (fieldAt, fieldEnd, v) -> {
                int valueEnd = scan.skipValue(v);
                if (scan.named(fieldAt, fieldEnd, SEQUENCE_NUMBER)) {
                    sequence[0] = scan.string(v, valueEnd);
                } else if (scan.named(fieldAt, fieldEnd, CREATED)) {
                    numbers[0] = scan.epochSecond(v, valueEnd);
                } else if (scan.named(fieldAt, fieldEnd, SIZE_BYTES)) {
                    numbers[1] = Long.parseLong(scan.number(v, valueEnd));
                } else if (scan.named(fieldAt, fieldEnd, KEYS_NAME)) {
                    parts[0] = scan.objectRange(v, valueEnd);
                } else if (scan.named(fieldAt, fieldEnd, OLD_IMAGE_NAME)) {
                    parts[1] = scan.objectRange(v, valueEnd);
                } else if (scan.named(fieldAt, fieldEnd, NEW_IMAGE_NAME)) {
                    parts[2] = scan.objectRange(v, valueEnd);
                }
                return valueEnd;
            });
        });
        if (sequence[0] == null || parts[0] == null || numbers[0] == Long.MIN_VALUE) {
            throw new IllegalArgumentException("a record without SequenceNumber, Keys or ApproximateCreationDateTime");
        }
        byte[] json = scan.json;
        int length = KEYS.length
                + parts[0][1]
                - parts[0][0]
                + (parts[1] == null ? 0 : OLD_IMAGE.length + parts[1][1] - parts[1][0])
                + (parts[2] == null ? 0 : NEW_IMAGE.length + parts[2][1] - parts[2][0]);
        byte[] members = new byte[length];
        int n = put(members, 0, KEYS, 0, KEYS.length);
        n = put(members, n, json, parts[0][0], parts[0][1]);
        if (parts[1] != null) {
            n = put(members, n, OLD_IMAGE, 0, OLD_IMAGE.length);
            n = put(members, n, json, parts[1][0], parts[1][1]);
        }
        if (parts[2] != null) {
            n = put(members, n, NEW_IMAGE, 0, NEW_IMAGE.length);
            put(members, n, json, parts[2][0], parts[2][1]);
        }
        bodies.add(new Body(sequence[0], numbers[0], numbers[1], members));
        return end;
    }

    private static int put(byte[] to, int at, byte[] from, int start, int end) {
        System.arraycopy(from, start, to, at, end - start);
        return at + end - start;
    }

    private static final byte[] RECORDS = quoted("Records");
    private static final byte[] DYNAMODB = quoted("dynamodb");
    private static final byte[] SEQUENCE_NUMBER = quoted("SequenceNumber");
    private static final byte[] CREATED = quoted("ApproximateCreationDateTime");
    private static final byte[] SIZE_BYTES = quoted("SizeBytes");
    private static final byte[] KEYS_NAME = quoted("Keys");
    private static final byte[] OLD_IMAGE_NAME = quoted("OldImage");
    private static final byte[] NEW_IMAGE_NAME = quoted("NewImage");
    private static final byte[] KEYS = "\"Keys\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OLD_IMAGE = ",\"OldImage\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW_IMAGE = ",\"NewImage\":".getBytes(StandardCharsets.US_ASCII);

    private static byte[] quoted(String name) {
        return ("\"" + name + "\"").getBytes(StandardCharsets.US_ASCII);
    }
}
