package io.dynarestore.contracts;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CloudEvents 1.0 Kafka binary-mode headers for a message, so that consumers in any language
 * can route on type and restore id without parsing the JSON body.
 */
public final class CloudEvents {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String SOURCE = "ce_source";
    public static final String TYPE = "ce_type";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    public static final String DATA_SCHEMA = "ce_dataschema";
    public static final String CONTENT_TYPE = "content-type";

    /** Prefix of every {@code ce_type}: the event's type name follows it. */
    public static final String TYPE_PREFIX = "io.dynarestore.";

    private CloudEvents() {}

    /**
     * The headers of a message produced by {@code service}.
     *
     * @param service the producing service, for example {@code restore-planner}
     */
    public static Map<String, byte[]> headers(Envelope message, String service) {
        var h = new LinkedHashMap<String, String>();
        h.put(SPEC_VERSION, "1.0");
        h.put(ID, message.eventId());
        h.put(SOURCE, "/dynarestore/" + service);
        h.put(TYPE, TYPE_PREFIX + message.type());
        if (message.occurredAt() != null) {
            h.put(TIME, message.occurredAt().toString());
        }
        if (message.subject() != null) {
            h.put(SUBJECT, message.subject());
        }
        h.put(DATA_SCHEMA, Schemas.uriOf(message.type()));
        h.put(CONTENT_TYPE, "application/json");
        var bytes = new LinkedHashMap<String, byte[]>();
        h.forEach((k, v) -> bytes.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return bytes;
    }
}
