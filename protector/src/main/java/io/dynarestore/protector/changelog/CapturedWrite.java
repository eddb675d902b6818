package io.dynarestore.protector.changelog;

/**
 * One write as read from its shard: its position there, its second, its keys and images already
 * encoded as the members of its export line ({@link io.dynarestore.core.vault.ChangeBodies}: one array,
 * not a graph of attribute values, while it waits for its flush) and the record's size as the stream
 * gives it ({@code SizeBytes}, which the export's manifest sums).
 */
record CapturedWrite(String shardId, String sequence, long second, byte[] body, long sizeBytes) {}
