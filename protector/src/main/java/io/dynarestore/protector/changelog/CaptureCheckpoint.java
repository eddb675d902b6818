package io.dynarestore.protector.changelog;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where a table's stream capture stands after a flush, written into the flushed export's folder
 * ({@code capture.json}) before its {@code export.json}, so that an export that is listed always has
 * the checkpoint that follows it: a replica that takes the table over resumes exactly after the
 * last record the vault holds.
 *
 * @param streamArn the stream read
 * @param to        the end (exclusive) of the range flushed; the next export starts here
 * @param shards    each shard's last sequence number in the vault (shards not named: none yet)
 * @param finished  closed shards read to their end and wholly in the vault
 */
public record CaptureCheckpoint(String streamArn, Instant to, Map<String, String> shards, List<String> finished) {

    public static final String FILE = "capture.json";

    public CaptureCheckpoint {
        shards = shards == null ? Map.of() : Map.copyOf(shards);
        finished = finished == null ? List.of() : List.copyOf(finished);
    }
}
