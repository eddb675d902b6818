package io.dynarestore.testkit;

import io.dynarestore.testkit.StreamLog.StreamsError;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DynamoDB Streams API of {@link StreamsEndpoint} over the {@link StreamLog}s it keeps:
 * {@code ListStreams}, {@code DescribeStream}, {@code GetShardIterator} and {@code GetRecords},
 * paged and refused as the service pages and refuses them; every read first trims what is older
 * than the retention.
 */
final class StreamsApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, StreamLog> byArn = new ConcurrentHashMap<>();
    private final AtomicLong recordsServed = new AtomicLong();
    private volatile Duration retention = Duration.ofHours(24);

    void register(StreamLog log) {
        byArn.put(log.arn(), log);
    }

    void retention(Duration retention) {
        this.retention = retention;
    }

    long recordsServed() {
        return recordsServed.get();
    }

    ObjectNode answer(String op, ObjectNode request) throws StreamsError {
        return switch (op) {
            case "ListStreams" -> listStreams(request);
            case "DescribeStream" -> describeStream(request);
            case "GetShardIterator" -> {
                ObjectNode o = JSON.createObjectNode();
                StreamLog log = stream(request.path("StreamArn").asString());
                log.trim(retention);
                o.put(
                        "ShardIterator",
                        log.iterator(
                                request.path("ShardId").asString(),
                                request.path("ShardIteratorType").asString(),
                                request.path("SequenceNumber").asString(null)));
                yield o;
            }
            case "GetRecords" -> getRecords(request);
            default -> throw new StreamsError("UnknownOperationException", "Unknown operation " + op);
        };
    }

    private ObjectNode listStreams(ObjectNode request) {
        String table = request.path("TableName").asString(null);
        String after = request.path("ExclusiveStartStreamArn").asString(null);
        int limit = request.path("Limit").asInt(100);
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode list = answer.putArray("Streams");
        var arns = byArn.keySet().stream().sorted().toList();
        for (String arn : arns) {
            StreamLog log = byArn.get(arn);
            if ((table != null && !table.equals(log.table())) || (after != null && arn.compareTo(after) <= 0)) {
                continue;
            }
            if (list.size() == limit) {
                answer.put(
                        "LastEvaluatedStreamArn",
                        list.get(list.size() - 1).path("StreamArn").asString());
                break;
            }
            ObjectNode s = list.addObject();
            s.put("StreamArn", arn);
            s.put("TableName", log.table());
            s.put("StreamLabel", log.label());
        }
        return answer;
    }

    private ObjectNode describeStream(ObjectNode request) throws StreamsError {
        StreamLog log = stream(request.path("StreamArn").asString());
        log.trim(retention);
        ObjectNode description = log.describe();
        String after = request.path("ExclusiveStartShardId").asString(null);
        int limit = Math.min(100, request.path("Limit").asInt(100));
        ArrayNode kept = JSON.createArrayNode();
        boolean started = after == null;
        String last = null;
        for (JsonNode shard : description.path("Shards")) {
            if (!started) {
                started = shard.path("ShardId").asString().equals(after);
                continue;
            }
            if (kept.size() == limit) {
                last = kept.get(kept.size() - 1).path("ShardId").asString();
                break;
            }
            kept.add(shard);
        }
        description.set("Shards", kept);
        if (last != null) {
            description.put("LastEvaluatedShardId", last);
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.set("StreamDescription", description);
        return answer;
    }

    private ObjectNode getRecords(ObjectNode request) throws StreamsError {
        String[] iterator = StreamLog.decode(request.path("ShardIterator").asString(""));
        if (iterator == null) {
            throw new StreamsError("ValidationException", "Invalid ShardIterator");
        }
        StreamLog log = stream(iterator[0]);
        log.trim(retention);
        ObjectNode answer =
                log.records(iterator, Math.min(1000, request.path("Limit").asInt(1000)));
        recordsServed.addAndGet(answer.path("Records").size());
        return answer;
    }

    private StreamLog stream(String arn) throws StreamsError {
        StreamLog log = byArn.get(arn);
        if (log == null) {
            throw new StreamsError(
                    "ResourceNotFoundException", "Requested resource not found: Stream: " + arn + " not found");
        }
        return log;
    }
}
