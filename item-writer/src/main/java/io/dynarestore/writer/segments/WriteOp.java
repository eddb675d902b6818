package io.dynarestore.writer.segments;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One write a line asks for: its key (the key attributes' values, in the table's order, as a
 * batch's identity), the key as an item, the image to put or {@code null} to delete the key, and
 * the digest the verification sums.
 */
record WriteOp(
        List<AttributeValue> key, Map<String, AttributeValue> keys, Map<String, AttributeValue> image, long digest) {

    boolean delete() {
        return image == null;
    }
}
