package io.dynarestore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An SDK interceptor that keeps the body of every request as the SDK is about to transmit it,
 * and then stops it ({@link Captured}): for contract tests of calls no local server answers
 * (ImportTable, RestoreTableFromBackup), checked with {@link ApiShapes}.
 */
public final class SentRequests implements ExecutionInterceptor {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A request body as it would have gone on the wire. */
    public record Sent(String operation, JsonNode body) {}

    /** Thrown in place of the call once its request is kept. */
    public static final class Captured extends RuntimeException {
        Captured(String operation) {
            super(operation + " captured, not sent");
        }
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        String target =
                context.httpRequest().firstMatchingHeader("X-Amz-Target").orElse("");
        String operation = target.substring(target.indexOf('.') + 1);
        JsonNode body = context.requestBody()
                .map(b -> {
                    try (InputStream in = b.contentStreamProvider().newStream()) {
                        return JSON.readTree(in.readAllBytes());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .orElse(JSON.createObjectNode());
        sent.add(new Sent(operation, body));
        throw new Captured(operation);
    }

    public List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** The one request of {@code operation}. */
    public Sent only(String operation) {
        var matching =
                sent.stream().filter(s -> s.operation().equals(operation)).toList();
        if (matching.size() != 1) {
            throw new AssertionError("expected one " + operation + " request, got " + matching.size() + ": " + sent);
        }
        return matching.get(0);
    }
}
