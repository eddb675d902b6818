package io.dynarestore.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The point-in-time history {@link StreamsEndpoint} keeps of a table whose point-in-time recovery
 * is enabled, as DynamoDB's continuous backups keep it: every write that changed an item, with its
 * time in microseconds (strictly increasing per table) and its old and new image. Enough to say
 * what the table held at any instant since recovery was enabled, which is what an export needs.
 */
final class TableHistory {

    /** One write: {@code old} or {@code now} is null for a created or deleted item. */
    record Write(long micros, ObjectNode key, JsonNode old, JsonNode now) {}

    /** The last write of a key in a window, with the key's image before the window. */
    record Change(long micros, ObjectNode key, JsonNode before, JsonNode after) {}

    private final JsonNode keySchema;
    private final Instant since;
    private final List<Write> writes = new ArrayList<>();
    private long lastMicros;

    TableHistory(JsonNode keySchema, Instant since) {
        this.keySchema = keySchema.deepCopy();
        this.since = since;
    }

    JsonNode keySchema() {
        return keySchema;
    }

    /** When recovery was enabled: the earliest restorable instant. */
    Instant since() {
        return since;
    }

    synchronized void record(Instant at, ObjectNode key, JsonNode old, JsonNode now) {
        long micros = Math.max(lastMicros + 1, at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000);
        lastMicros = micros;
        writes.add(new Write(micros, key, old, now));
    }

    /**
     * The table at {@code at} (writes at or before it applied), from {@code current}, its items as
     * read while no write could land: every later write is undone, newest first.
     */
    synchronized Map<ObjectNode, JsonNode> imageAt(Instant at, Map<ObjectNode, JsonNode> current) {
        long micros = at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
        var image = new LinkedHashMap<>(current);
        for (int i = writes.size() - 1; i >= 0 && writes.get(i).micros() > micros; i--) {
            Write w = writes.get(i);
            if (w.old() == null) {
                image.remove(w.key());
            } else {
                image.put(w.key(), w.old());
            }
        }
        return image;
    }

    /** Each key written in [{@code from}, {@code to}): its image before and after, and its last write's time. */
    synchronized List<Change> changes(Instant from, Instant to) {
        long start = from.getEpochSecond() * 1_000_000 + from.getNano() / 1_000;
        long end = to.getEpochSecond() * 1_000_000 + to.getNano() / 1_000;
        var byKey = new LinkedHashMap<ObjectNode, Change>();
        for (Write w : writes) {
            if (w.micros() < start || w.micros() >= end) {
                continue;
            }
            Change first = byKey.get(w.key());
            byKey.put(w.key(), new Change(w.micros(), w.key(), first == null ? w.old() : first.before(), w.now()));
        }
        return List.copyOf(byKey.values());
    }
}
