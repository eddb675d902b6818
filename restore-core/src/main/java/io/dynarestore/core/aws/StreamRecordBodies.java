package io.dynarestore.core.aws;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;

/**
 * The keys and images of the records of a DynamoDB Streams {@code GetRecords} answer as the service
 * sent them: the bytes of each record's {@code Keys}, {@code OldImage} and {@code NewImage}, which are
 * already DynamoDB JSON, the form of an incremental export's line. A capture that takes them needs
 * not encode again what the SDK decoded (a third of its CPU). Installed on a Streams client as an
 * interceptor, it keeps the last answer's body for the thread that made the call (the synchronous
 * client answers on the caller's thread); {@link #take()} hands it over once. What a caller takes is
 * a hint it must check: {@link Body#sequenceNumber()} against the SDK's record, else encode itself.
 */
public final class StreamRecordBodies implements ExecutionInterceptor {

    /** The interceptor to add to a {@code DynamoDbStreamsClient}. */
    public static final StreamRecordBodies INTERCEPTOR = new StreamRecordBodies();

    private static final ThreadLocal<byte[]> LAST = new ThreadLocal<>();

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
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        Optional<InputStream> body = context.responseBody();
        if (!(context.request() instanceof GetRecordsRequest) || body.isEmpty()
                || context.httpResponse().statusCode() != 200) {
            return body;
        }
        try (InputStream in = body.get()) {
            byte[] bytes = in.readAllBytes(); // at most 1 MB: GetRecords answers no more
            LAST.set(bytes);
            return Optional.of(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bodies of the last GetRecords answered on this thread, in order; empty when there is none (or no JSON). */
    public static List<Body> take() {
        byte[] last = LAST.get();
        LAST.remove();
        if (last == null) {
            return List.of();
        }
        try {
            return parse(last);
        } catch (RuntimeException e) {
            return List.of(); // not the JSON we know: the caller encodes the records itself
        }
    }

    /**
     * Cuts the answer by its structure only: a scan that follows objects, arrays and strings (with
     * their escapes) without decoding a value, several times cheaper than tokenizing the images.
     */
    static List<Body> parse(byte[] json) {
        var bodies = new ArrayList<Body>();
        var scan = new Scan(json);
        scan.objectMembers(scan.skipSpace(0), (name, at) -> {
            if (!name.equals("Records")) {
                return scan.skipValue(at);
            }
            return scan.arrayElements(at, element -> {
                bodies.add(record(scan, element));
                return scan.skipValue(element);
            });
        });
        return bodies;
    }

    private static Body record(Scan scan, int at) {
        String[] sequence = new String[1];
        int[][] parts = new int[3][];
        scan.objectMembers(at, (name, value) -> {
            if (!name.equals("dynamodb")) {
                return scan.skipValue(value);
            }
            return scan.objectMembers(value, (field, v) -> {
                int end = scan.skipValue(v);
                switch (field) {
                    case "SequenceNumber" -> sequence[0] = scan.string(v, end);
                    case "Keys" -> parts[0] = scan.objectRange(v, end);
                    case "OldImage" -> parts[1] = scan.objectRange(v, end);
                    case "NewImage" -> parts[2] = scan.objectRange(v, end);
                    default -> {
                    }
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

    private static final byte[] KEYS = "\"Keys\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OLD_IMAGE = ",\"OldImage\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW_IMAGE = ",\"NewImage\":".getBytes(StandardCharsets.US_ASCII);

    /** What is done with each member (its name, where its value starts); returns where the value ends. */
    private interface Member {
        int at(String name, int value);
    }

    /** What is done with each element of an array (where it starts); returns where it ends. */
    private interface Element {
        int at(int start);
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
                int nameEnd = skipString(i);
                String name = new String(json, i + 1, nameEnd - i - 2, StandardCharsets.UTF_8);
                i = expect(skipSpace(nameEnd), ':');
                i = skipSpace(member.at(name, skipSpace(i)));
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
                int depth = 0;
                while (true) {
                    c = json[i];
                    if (c == '"') {
                        i = skipString(i);
                        continue;
                    }
                    if (c == '{' || c == '[') {
                        depth++;
                    } else if (c == '}' || c == ']') {
                        if (--depth == 0) {
                            return i + 1;
                        }
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
            i++;
            while (json[i] != '"') {
                i += json[i] == '\\' ? 2 : 1;
            }
            return i + 1;
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
