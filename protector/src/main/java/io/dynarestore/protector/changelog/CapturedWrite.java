package io.dynarestore.protector.changelog;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One write as read from its shard: its position there, its second, its images (null: none) and
 * the record's size as the stream gives it ({@code SizeBytes}, which the export's manifest sums).
 */
record CapturedWrite(String shardId, String sequence, long second, Map<String, AttributeValue> keys,
                     Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage, long sizeBytes) {
}
