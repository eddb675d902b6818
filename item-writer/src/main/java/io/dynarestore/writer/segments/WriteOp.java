package io.dynarestore.writer.segments;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One write a line asks for: its key (the key attributes' values, in the table's order, as a
 * batch's identity), the key as an item, the image to put or {@code null} to delete the key, the
 * digest the verification sums, and for a strict undo's line the image the destination must still
 * hold for the write to be made ({@code expect}; {@code null} inside it: the key must be absent).
 */
record WriteOp(
        List<AttributeValue> key,
        Map<String, AttributeValue> keys,
        Map<String, AttributeValue> image,
        long digest,
        Expectation expect) {

    WriteOp(
            List<AttributeValue> key,
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> image,
            long digest) {
        this(key, keys, image, digest, null);
    }

    /** The image a conditional write expects to replace; {@code image} {@code null}: the key must be absent. */
    record Expectation(Map<String, AttributeValue> image) {}

    boolean delete() {
        return image == null;
    }

    /** This write, made only where the destination still holds {@code expected} ({@code null}: nothing). */
    WriteOp expecting(Map<String, AttributeValue> expected) {
        return new WriteOp(key, keys, image, digest, new Expectation(expected));
    }
}
