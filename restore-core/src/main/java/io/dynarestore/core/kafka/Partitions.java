package io.dynarestore.core.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition Kafka's Java producer puts a key on (murmur2). Clients in other languages may
 * use another partitioner (librdkafka's default is CRC32-based), so a request can arrive on a
 * partition that does not own its restore id; the planner moves such a request to the right one.
 */
public final class Partitions {

    private Partitions() {}

    public static int of(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
