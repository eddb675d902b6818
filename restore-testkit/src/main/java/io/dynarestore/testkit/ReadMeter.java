package io.dynarestore.testkit;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The read units a {@link CapacityProxy} saw consumed, per table and epoch second, counted as
 * DynamoDB counts them: an item's size in 4 KB units, at least one, half when eventually
 * consistent. A Scan pays per page; a BatchGetItem per key asked, an absent key too.
 */
final class ReadMeter {

    private final Map<String, SortedMap<Long, Long>> consumed = new ConcurrentHashMap<>();

    /** Meters one answered Scan. */
    void scanned(JsonNode request, JsonNode answer) {
        long bytes = 0;
        for (JsonNode item : answer.path("Items")) {
            bytes += ItemBytes.size(item);
        }
        long units = Math.max(1, (bytes + 4_095) / 4_096);
        if (!request.path("ConsistentRead").asBoolean(false)) {
            units = (units + 1) / 2;
        }
        record(request.path("TableName").asString(), units);
    }

    /** Meters one answered BatchGetItem, table by table; keys left unprocessed cost nothing. */
    void batchRead(JsonNode request, JsonNode answer) {
        for (var table : request.path("RequestItems").properties()) {
            boolean consistent = table.getValue().path("ConsistentRead").asBoolean(false);
            long asked = table.getValue().path("Keys").size();
            long unprocessed = answer.path("UnprocessedKeys")
                    .path(table.getKey())
                    .path("Keys")
                    .size();
            long units = 0;
            long found = 0;
            for (JsonNode item : answer.path("Responses").path(table.getKey())) {
                long u = Math.max(1, (ItemBytes.size(item) + 4_095) / 4_096);
                units += consistent ? u : (u + 1) / 2;
                found++;
            }
            long absent = Math.max(0, asked - unprocessed - found);
            units += consistent ? absent : (absent + 1) / 2;
            record(table.getKey(), units);
        }
    }

    private void record(String table, long units) {
        SortedMap<Long, Long> m = consumed.computeIfAbsent(table, t -> new TreeMap<>());
        synchronized (m) {
            m.merge(System.currentTimeMillis() / 1000, units, Long::sum);
        }
    }

    /** Read units consumed of {@code table} per epoch second, for the seconds in which it was read. */
    SortedMap<Long, Long> perSecond(String table) {
        SortedMap<Long, Long> m = consumed.get(table);
        if (m == null) {
            return new TreeMap<>();
        }
        synchronized (m) {
            return new TreeMap<>(m);
        }
    }
}
