package io.dynarestore.core.request;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.commands.RestoreCommand;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a command from {@code restore.commands} as every consumer of that topic must: checked
 * against the JSON Schema of its type (which pins its restore id to {@link io.dynarestore.contracts.RestoreIds}
 * and keeps control characters out of {@code requestedBy} and {@code reason}) before it is read.
 */
public final class CommandReader {

    private CommandReader() {}

    /** The command, or the reason it is not a valid one. */
    public sealed interface Result permits Valid, Invalid {}

    public record Valid(RestoreCommand command) implements Result {}

    public record Invalid(String reason) implements Result {}

    public static Result read(byte[] raw) {
        if (raw == null || raw.length == 0 || raw.length > RequestReader.MAX_BYTES) {
            return new Invalid("a command is one JSON object of at most " + RequestReader.MAX_BYTES + " bytes");
        }
        JsonNode json;
        try {
            json = Json.mapper().readTree(raw);
        } catch (JacksonException e) {
            return new Invalid("not JSON (" + e.getOriginalMessage() + ")");
        }
        if (json == null || !json.isObject() || !json.path("type").isString()) {
            return new Invalid("not a JSON object with a type");
        }
        String type = json.get("type").asString();
        if (!List.of("CancelRequested", "RollbackRequested").contains(type)) {
            return new Invalid("type " + type + " is not a command (CancelRequested, RollbackRequested)");
        }
        List<FieldError> errors = Schemas.validate(type, json);
        if (!errors.isEmpty()) {
            return new Invalid("it does not match " + Schemas.uriOf(type) + ": "
                    + errors.stream()
                            .map(e -> (e.field().isEmpty() ? "(root)" : e.field()) + " " + e.message())
                            .collect(Collectors.joining("; ")));
        }
        try {
            return new Valid(Json.mapper().treeToValue(json, RestoreCommand.class));
        } catch (JacksonException e) {
            return new Invalid("it could not be read: " + e.getOriginalMessage());
        }
    }
}
