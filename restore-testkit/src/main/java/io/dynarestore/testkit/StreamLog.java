package io.dynarestore.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One table's DynamoDB Stream as {@link StreamsEndpoint} keeps it: each of its partitions (a key's
 * partition is a hash of its key, as in DynamoDB) writes into one open shard at a time, which holds at
 * most {@code recordsPerShard} records, the next one opening as the child of the last; records
 * older than the retention are trimmed (and a shard whose records are all trimmed is gone), as
 * DynamoDB Streams keeps 24 hours. Shard iterators are opaque, name a position, and expire after
 * 15 minutes. Sequence numbers are decimal strings of 21 digits, increasing across the endpoint.
 */
final class StreamLog {

    static final Duration ITERATOR_LIFETIME = Duration.ofMinutes(15);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DateTimeFormatter LABEL =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final String table;
    private final String streamArn;
    private final String label;
    private final JsonNode keySchema;
    private final List<Shard> shards = new ArrayList<>();
    /** Each partition's open shard (or its last, closed one). */
    private final Shard[] open;

    private final Clock clock;
    private boolean enabled = true;

    StreamLog(String table, String region, String account, JsonNode keySchema, Clock clock, int partitions) {
        this.open = new Shard[Math.max(1, partitions)];
        this.table = table;
        this.clock = clock;
        this.label = LABEL.format(clock.instant());
        this.streamArn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table + "/stream/" + label;
        this.keySchema = keySchema;
    }

    String arn() {
        return streamArn;
    }

    String label() {
        return label;
    }

    String table() {
        return table;
    }

    JsonNode keySchema() {
        return keySchema;
    }

    synchronized boolean enabled() {
        return enabled;
    }

    synchronized void disable() {
        enabled = false;
        for (Shard shard : open) {
            if (shard != null) {
                shard.close();
            }
        }
    }

    /** Appends a record made now; {@code record} is its {@code dynamodb} member without the sequence number. */
    synchronized void append(ObjectNode record, String sequenceNumber, int recordsPerShard) {
        int partition = open.length == 1
                ? 0
                : Math.floorMod(record.get("dynamodb").get("Keys").toString().hashCode(), open.length);
        Shard shard = open[partition];
        if (shard == null || shard.closed() || shard.size() >= recordsPerShard) {
            if (shard != null && !shard.closed()) {
                shard.close();
            }
            shard = new Shard(newShardId(), shard == null ? null : shard.id, sequenceNumber);
            shards.add(shard);
            open[partition] = shard;
        }
        ((ObjectNode) record.get("dynamodb")).put("SequenceNumber", sequenceNumber);
        shard.add(record, sequenceNumber, clock.millis());
    }

    /** Drops the records older than {@code retention}, and the shards left closed and empty. */
    synchronized void trim(Duration retention) {
        long oldest = clock.millis() - retention.toMillis();
        for (Shard s : shards) {
            s.trimBefore(oldest);
        }
        shards.removeIf(s -> s.closed() && s.available() == 0);
    }

    synchronized ObjectNode describe() {
        ObjectNode d = JSON.createObjectNode();
        d.put("StreamArn", streamArn);
        d.put("StreamLabel", label);
        d.put("StreamStatus", enabled ? "ENABLED" : "DISABLED");
        d.put("StreamViewType", "NEW_AND_OLD_IMAGES");
        d.put("TableName", table);
        d.set("KeySchema", keySchema);
        ArrayNode list = d.putArray("Shards");
        for (Shard s : shards) {
            ObjectNode shard = list.addObject();
            shard.put("ShardId", s.id);
            if (s.parent != null) {
                shard.put("ParentShardId", s.parent);
            }
            ObjectNode range = shard.putObject("SequenceNumberRange");
            range.put("StartingSequenceNumber", s.firstSequence());
            if (s.closed()) {
                range.put("EndingSequenceNumber", s.lastSequence());
            }
        }
        return d;
    }

    /** A shard iterator, or the exception's name and message when the request cannot get one. */
    synchronized String iterator(String shardId, String type, String sequenceNumber) throws StreamsError {
        Shard s = shard(shardId);
        long position = switch (type) {
            case "TRIM_HORIZON" -> s.trimmed;
            case "LATEST" -> s.end();
            case "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER" -> {
                if (sequenceNumber == null) {
                    throw new StreamsError("ValidationException", "SequenceNumber is required for " + type);
                }
                long at = s.positionOf(sequenceNumber);
                yield "AT_SEQUENCE_NUMBER".equals(type) ? at : at + 1;
            }
            default -> throw new StreamsError("ValidationException", "Invalid ShardIteratorType: " + type);
        };
        return encode(s.id, position, clock.millis());
    }

    /** Up to {@code limit} records from an iterator's position, and the next iterator (null at a closed shard's end). */
    synchronized ObjectNode records(String[] iterator, int limit) throws StreamsError {
        long issued = Long.parseLong(iterator[3]);
        if (clock.millis() - issued > ITERATOR_LIFETIME.toMillis()) {
            throw new StreamsError(
                    "ExpiredIteratorException",
                    "Iterator expired. The iterator was created at time " + issued + " while right now it is "
                            + clock.millis() + ".");
        }
        Shard s = shard(iterator[1]);
        long position = Long.parseLong(iterator[2]);
        if (position < s.trimmed) {
            throw new StreamsError(
                    "TrimmedDataAccessException",
                    "The operation attempted to read past the oldest " + "stream record in a shard.");
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode records = out.putArray("Records");
        long next = position;
        while (next < s.end() && records.size() < limit) {
            records.add(s.get(next).deepCopy());
            next++;
        }
        if (!(s.closed() && next >= s.end())) {
            out.put("NextShardIterator", encode(s.id, next, clock.millis()));
        }
        return out;
    }

    private Shard shard(String shardId) throws StreamsError {
        for (Shard s : shards) {
            if (s.id.equals(shardId)) {
                return s;
            }
        }
        throw new StreamsError(
                "ResourceNotFoundException",
                "Requested resource not found: Shard: " + shardId + " in Stream: " + streamArn + " not found");
    }

    private String encode(String shardId, long position, long issuedAt) {
        String raw = streamArn + "|" + shardId + "|" + position + "|" + issuedAt;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    /** The parts of an iterator: stream ARN, shard id, position, issue time; null if it is not one of ours. */
    static String[] decode(String iterator) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(iterator), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|");
            return parts.length == 4 ? parts : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private String newShardId() {
        return "shardId-" + String.format(Locale.ROOT, "%020d", clock.millis()) + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt() | 0x10000000);
    }

    /** An error answered with its DynamoDB Streams exception name. */
    static final class StreamsError extends Exception {
        final String type;

        StreamsError(String type, String message) {
            super(message);
            this.type = type;
        }
    }

    private static final class Shard {
        final String id;
        final String parent;
        final String startSequence;
        private final List<ObjectNode> records = new ArrayList<>();
        private final List<String> sequences = new ArrayList<>();
        private final List<Long> times = new ArrayList<>();
        /** Records before this absolute position are gone. */
        long trimmed;

        private boolean closed;

        Shard(String id, String parent, String startSequence) {
            this.id = id;
            this.parent = parent;
            this.startSequence = startSequence;
        }

        void add(ObjectNode record, String sequence, long millis) {
            records.add(record);
            sequences.add(sequence);
            times.add(millis);
        }

        int size() {
            return (int) end();
        }

        long end() {
            return trimmed + records.size();
        }

        long available() {
            return records.size();
        }

        ObjectNode get(long position) {
            return records.get((int) (position - trimmed));
        }

        boolean closed() {
            return closed;
        }

        void close() {
            closed = true;
        }

        String firstSequence() {
            return sequences.isEmpty() ? startSequence : sequences.get(0);
        }

        String lastSequence() {
            return sequences.isEmpty() ? startSequence : sequences.get(sequences.size() - 1);
        }

        long positionOf(String sequence) throws StreamsError {
            for (int i = 0; i < sequences.size(); i++) {
                int c = compare(sequences.get(i), sequence);
                if (c == 0) {
                    return trimmed + i;
                }
                if (c > 0) {
                    break;
                }
            }
            if (trimmed > 0
                    && compare(sequence, startSequence) >= 0
                    && (sequences.isEmpty() || compare(sequence, sequences.get(0)) < 0)) {
                throw new StreamsError(
                        "TrimmedDataAccessException",
                        "The operation attempted to read past the oldest " + "stream record in a shard.");
            }
            throw new StreamsError(
                    "InvalidArgumentException", "Invalid SequenceNumber " + sequence + " for shard " + id);
        }

        void trimBefore(long oldestMillis) {
            while (!times.isEmpty() && times.get(0) < oldestMillis) {
                times.remove(0);
                sequences.remove(0);
                records.remove(0);
                trimmed++;
            }
        }

        private static int compare(String a, String b) {
            return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
        }
    }
}
