package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The writes made through a {@link StreamsEndpoint}, recorded as DynamoDB records them. Rule: the
 * writes to one table are serialized here, and each item's image is read (consistently) before and
 * after the write is forwarded, so that its stream record and its recovery history hold exactly the
 * old and new image; a write that changes nothing, or that BatchWriteItem left unprocessed, records
 * nothing, as on DynamoDB.
 */
final class WriteRecorder {

    /** Reads one item of a table as it is now. */
    interface Items {
        JsonNode getItem(String table, ObjectNode key);
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final int READ_ATTEMPTS = 5;

    private final Forwarding forwarding;
    private final Function<String, Recorded> recording;
    private final Items dynamo;
    private final Clock clock;
    private final IntSupplier recordsPerShard;
    private final Supplier<String> region;
    private final Map<String, ReentrantLock> tableLocks = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong(100_000_000_000_000_000L);

    WriteRecorder(
            Forwarding forwarding,
            Function<String, Recorded> recording,
            Items dynamo,
            Clock clock,
            IntSupplier recordsPerShard,
            Supplier<String> region) {
        this.forwarding = forwarding;
        this.recording = recording;
        this.dynamo = dynamo;
        this.clock = clock;
        this.recordsPerShard = recordsPerShard;
        this.region = region;
    }

    /** Runs {@code action} while no write to {@code table} is made (an export's consistent image). */
    <T> T locked(String table, Supplier<T> action) {
        ReentrantLock lock = tableLocks.computeIfAbsent(table, k -> new ReentrantLock());
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    void write(HttpExchange exchange, byte[] body, String op) throws IOException, InterruptedException {
        List<KeyedWrite> writes = recordedWrites((ObjectNode) JSON.readTree(body), op);
        if (writes.isEmpty()) {
            var response = forwarding.forward(exchange, body);
            Forwarding.copyBack(exchange, response, response.body());
            return;
        }
        List<ReentrantLock> locks = writes.stream()
                .map(w -> w.log.table)
                .distinct()
                .sorted()
                .map(t -> tableLocks.computeIfAbsent(t, k -> new ReentrantLock()))
                .toList();
        locks.forEach(ReentrantLock::lock);
        try {
            for (KeyedWrite w : writes) {
                w.old = read(dynamo, w.log.table, w.key);
            }
            HttpResponse<byte[]> response;
            try {
                response = forwarding.forward(exchange, body);
            } catch (IOException e) {
                // the database may have made the write before the connection failed; DynamoDB streams
                // every write it makes, so record whatever changed (the lock keeps other writes out)
                try {
                    writes.forEach(this::recordAsItIsNow);
                } catch (RuntimeException unread) {
                    e.addSuppressed(unread);
                }
                throw e;
            }
            if (response.statusCode() == 200) {
                JsonNode unprocessed = JSON.readTree(response.body()).path("UnprocessedItems");
                for (KeyedWrite w : writes) {
                    if (!isUnprocessed(unprocessed, w)) {
                        recordAsItIsNow(w);
                    }
                }
            }
            Forwarding.copyBack(exchange, response, response.body());
        } finally {
            locks.forEach(ReentrantLock::unlock);
        }
    }

    /** The writes of a request to tables whose writes are recorded, each with its item's key. */
    private List<KeyedWrite> recordedWrites(ObjectNode request, String op) {
        var writes = new ArrayList<KeyedWrite>();
        if ("BatchWriteItem".equals(op)) {
            for (var entry : request.path("RequestItems").properties()) {
                Recorded log = recording.apply(entry.getKey());
                for (JsonNode w : entry.getValue()) {
                    if (log != null) {
                        JsonNode image = w.has("PutRequest")
                                ? w.path("PutRequest").path("Item")
                                : w.path("DeleteRequest").path("Key");
                        writes.add(new KeyedWrite(log, keyOf(log, image)));
                    }
                }
            }
        } else {
            Recorded log = recording.apply(request.path("TableName").asString());
            if (log != null) {
                writes.add(new KeyedWrite(
                        log, keyOf(log, "PutItem".equals(op) ? request.path("Item") : request.path("Key"))));
            }
        }
        return writes;
    }

    /** Records {@code w} with the item's image now (nothing when the write changed nothing). */
    private void recordAsItIsNow(KeyedWrite w) {
        record(w.log, w.key, w.old, read(dynamo, w.log.table, w.key));
    }

    /**
     * Reads an item, again after a failed connection, at most {@link #READ_ATTEMPTS} times. A read
     * after a write the database made must not be lost: dynalite closes idle connections as soon as
     * it resumes from a pause (SIGSTOP), and a read sent on one of them then fails, which left such a
     * write out of the stream.
     */
    static JsonNode read(Items dynamo, String table, ObjectNode key) {
        for (int attempt = 1; ; attempt++) {
            try {
                return dynamo.getItem(table, key);
            } catch (UncheckedIOException e) {
                if (attempt == READ_ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(50L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private boolean isUnprocessed(JsonNode unprocessed, KeyedWrite w) {
        for (JsonNode left : unprocessed.path(w.log.table)) {
            JsonNode image = left.has("PutRequest")
                    ? left.path("PutRequest").path("Item")
                    : left.path("DeleteRequest").path("Key");
            if (keyOf(w.log, image).equals(w.key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records {@code image} as created in {@code table}'s stream without the database seeing a write
     * (see {@link StreamsEndpoint#recordCreated}); false when the table records nothing.
     */
    boolean recordCreated(String table, JsonNode image) {
        Recorded log = recording.apply(table);
        if (log == null) {
            return false;
        }
        record(log, keyOf(log, image), null, image);
        return true;
    }

    private void record(Recorded table, ObjectNode key, JsonNode old, JsonNode now) {
        if ((old == null && now == null) || (old != null && old.equals(now))) {
            return; // DynamoDB writes no record for a write that changes nothing
        }
        if (table.history != null) {
            table.history.record(clock.instant(), key, old, now);
        }
        StreamLog log = table.stream;
        if (log == null) {
            return;
        }
        ObjectNode record = JSON.createObjectNode();
        record.put("eventID", UUID.randomUUID().toString().replace("-", ""));
        record.put("eventName", old == null ? "INSERT" : now == null ? "REMOVE" : "MODIFY");
        record.put("eventVersion", "1.1");
        record.put("eventSource", "aws:dynamodb");
        record.put("awsRegion", region.get());
        ObjectNode d = record.putObject("dynamodb");
        d.put("ApproximateCreationDateTime", clock.millis() / 1000);
        d.set("Keys", key);
        if (now != null) {
            d.set("NewImage", now);
        }
        if (old != null) {
            d.set("OldImage", old);
        }
        d.put(
                "SizeBytes",
                key.toString().length()
                        + (now == null ? 0 : now.toString().length())
                        + (old == null ? 0 : old.toString().length()));
        d.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        log.append(record, Long.toString(sequence.incrementAndGet()), recordsPerShard.getAsInt());
    }

    /** Where one table's writes are recorded: its enabled stream (or null), its recovery history (or null). */
    record Recorded(String table, JsonNode keySchema, StreamLog stream, TableHistory history) {}

    private static ObjectNode keyOf(Recorded log, JsonNode image) {
        ObjectNode key = JSON.createObjectNode();
        for (JsonNode k : log.keySchema()) {
            String name = k.path("AttributeName").asString();
            key.set(name, image.path(name));
        }
        return key;
    }

    private static final class KeyedWrite {
        final Recorded log;
        final ObjectNode key;
        JsonNode old;

        KeyedWrite(Recorded log, ObjectNode key) {
            this.log = log;
            this.key = key;
        }
    }
}
