package io.dynarestore.contracts.protection;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.dynarestore.contracts.Topic;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * A message on one of the protector's input topics that it could not act on (unreadable, or a
 * policy that breaks {@link ProtectionSet#problems()}): it went to the topic's dead-letter topic,
 * and nothing was changed. {@code account}, {@code region} and {@code table} are the table the
 * message's key names, or absent when the key names none. The event id is the message's position,
 * so that a message read again (a protector replica reads the compacted policy topic from its start
 * after every assignment) is reported under the same id.
 */
public record ProtectionMessageRejected(
        String eventId,
        Integer schemaVersion,
        Instant occurredAt,
        String account,
        String region,
        String table,
        String topic,
        Integer partition,
        Long offset,
        ProtectionRejectionCode code,
        String reason)
        implements ProtectionEvent {

    private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]{1,2}");
    private static final Pattern TABLE = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

    /** The rejection of the message at {@code topic}-{@code partition}@{@code offset} with this key. */
    public static ProtectionMessageRejected of(
            String key, String topic, int partition, long offset, ProtectionRejectionCode code, String reason) {
        String[] parts = key == null ? new String[0] : key.split("/", -1);
        boolean named = parts.length >= 3
                && ACCOUNT.matcher(parts[0]).matches()
                && REGION.matcher(parts[1]).matches()
                && TABLE.matcher(parts[2]).matches();
        String text = reason == null ? "" : reason.length() > 2_000 ? reason.substring(0, 2_000) : reason;
        return new ProtectionMessageRejected(
                topic + "-" + partition + "-" + offset + "-rejected",
                SCHEMA_VERSION,
                Instant.now(),
                named ? parts[0] : null,
                named ? parts[1] : null,
                named ? parts[2] : null,
                topic,
                partition,
                offset,
                code,
                text);
    }

    /** The table's key when the message named one, else {@code unknown}. */
    @Override
    @JsonIgnore
    public String subject() {
        return account == null ? "unknown" : Topic.tableKey(account, region, table);
    }
}
