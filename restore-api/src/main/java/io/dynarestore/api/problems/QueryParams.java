package io.dynarestore.api.problems;

import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The one rule for query parameters every endpoint shares: how a time is read, and how a bad one is refused. */
public final class QueryParams {

    private QueryParams() {}

    /** {@code value} as an ISO-8601 time, {@code otherwise} when absent; a 400 naming {@code name} when it does not parse. */
    public static Instant instant(String name, String value, Instant otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw invalid("/" + name, name + " '" + value + "' is not an ISO-8601 time such as 2026-11-30T10:15:42Z.");
        }
    }

    /** A 400 whose one field error is {@code field}, with {@code detail} saying what would do. */
    public static ApiProblem invalid(String field, String detail) {
        return new ApiProblem(400, "INVALID_REQUEST", detail, List.of(new FieldError(field, detail)));
    }

    /** An instant from microseconds since the epoch. */
    public static Instant ofMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000);
    }
}
