package io.dynarestore.core.request;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.RestoreIds;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a restore request from raw bytes, as restore-api and the planner receive it, and checks
 * it against {@code RestoreRequested.schema.json} and the rules the schema cannot state. Every
 * problem is reported with the field it concerns and what to do about it.
 */
public final class RequestReader {

    /** Largest request accepted; a request is a small JSON document. */
    public static final int MAX_BYTES = 64 * 1024;

    private RequestReader() {}

    /**
     * @param fallbackRestoreId the id to report a rejection under when the request has no usable
     *                          restore id of its own
     */
    public static Result read(byte[] raw, String fallbackRestoreId) {
        if (raw == null || raw.length == 0) {
            return new Invalid(
                    fallbackRestoreId,
                    RejectionCode.INVALID_JSON,
                    "The request is empty. Send one JSON object as described by " + Schemas.uriOf(RestoreRequested.TYPE)
                            + ".",
                    List.of());
        }
        if (raw.length > MAX_BYTES) {
            return new Invalid(
                    fallbackRestoreId,
                    RejectionCode.INVALID_REQUEST,
                    "The request is " + raw.length + " bytes; at most " + MAX_BYTES + " are accepted.",
                    List.of());
        }
        JsonNode json;
        try {
            json = Json.mapper().readTree(raw);
        } catch (JacksonException e) {
            return new Invalid(
                    fallbackRestoreId,
                    RejectionCode.INVALID_JSON,
                    "The request is not valid JSON (" + e.getOriginalMessage()
                            + "). Send one JSON object as described by " + Schemas.uriOf(RestoreRequested.TYPE) + ".",
                    List.of());
        }
        if (json == null || !json.isObject()) {
            return new Invalid(
                    fallbackRestoreId,
                    RejectionCode.INVALID_JSON,
                    "The request must be a JSON object, not " + (json == null ? "nothing" : json.getNodeType())
                            + ". See " + Schemas.uriOf(RestoreRequested.TYPE) + ".",
                    List.of());
        }
        String restoreId = usableRestoreId(json, fallbackRestoreId);
        var errors = new ArrayList<>(Schemas.validate(RestoreRequested.TYPE, json));
        if (errors.isEmpty()) {
            errors.addAll(rules(json));
        }
        if (!errors.isEmpty()) {
            return new Invalid(restoreId, RejectionCode.INVALID_REQUEST, describe(errors), errors);
        }
        RestoreRequested request;
        try {
            request = Json.mapper().treeToValue(json, RestoreRequested.class);
        } catch (JacksonException e) {
            return new Invalid(
                    restoreId,
                    RejectionCode.INVALID_REQUEST,
                    "The request could not be read: " + e.getOriginalMessage(),
                    List.of());
        }
        return new Valid(request);
    }

    private static List<FieldError> rules(JsonNode json) {
        var errors = new ArrayList<FieldError>();
        JsonNode source = json.get("source");
        var named = new ArrayList<String>();
        for (String f : List.of("backupId", "pointInTime", "snapId")) {
            if (source.has(f)) {
                named.add(f);
            }
        }
        if (named.size() != 1) {
            errors.add(new FieldError(
                    "/source",
                    "must name exactly one of backupId, pointInTime or snapId; it names "
                            + (named.isEmpty() ? "none" : String.join(" and ", named))));
        }
        JsonNode delivery = json.path("destination").path("delivery");
        if ("EMAIL".equals(delivery.path("type").asString(null))
                && (!delivery.has("recipients") || delivery.get("recipients").isEmpty())) {
            // the schema lets a redacted copy (RestoreAccepted.request) leave them out, a submission may not
            errors.add(new FieldError(
                    "/destination/delivery/recipients",
                    "is required for EMAIL delivery: the " + "addresses the link is mailed to"));
        }
        return errors;
    }

    private static String describe(List<FieldError> errors) {
        return "The request does not match " + RestoreRequested.TYPE + ".schema.json: "
                + errors.stream()
                        .map(e -> (e.field().isEmpty() ? "(root)" : e.field()) + " " + e.message())
                        .collect(Collectors.joining("; "))
                + ". Fix these fields and send it again.";
    }

    private static String usableRestoreId(JsonNode json, String fallback) {
        JsonNode id = json.get("restoreId");
        if (id != null && id.isString() && RestoreIds.valid(id.asString())) {
            return id.asString();
        }
        return fallback;
    }

    /** The outcome of reading a request. */
    public sealed interface Result permits Valid, Invalid {}

    /** A request that matches the contract (not yet checked against the vault or the world). */
    public record Valid(RestoreRequested request) implements Result {}

    /** A request that does not, with the id to report it under and why. */
    public record Invalid(String restoreId, RejectionCode code, String reason, List<FieldError> errors)
            implements Result {}
}
