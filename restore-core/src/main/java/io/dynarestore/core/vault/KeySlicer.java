package io.dynarestore.core.vault;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which of a file's key slices (ADR 0045) a key belongs to. The rule (equal slices of the key-hash
 * space, in hash order) is the planner's key ranges' own: {@code KeyRange.slicer}.
 */
public interface KeySlicer {

    /** The table's key attributes, partition key first. */
    List<String> keyAttributes();

    /** How many slices. */
    int count();

    /** The slice of a key map (the key attributes, or an item holding them), from 0 to {@code count() - 1}. */
    int sliceOf(Map<String, AttributeValue> key);
}
