package io.dynarestore.core.vault;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One line of an export data file. A full export line has {@code Item}; an incremental export
 * line has {@code Keys}, {@code NewImage} (absent for a delete), {@code OldImage} and the write
 * time in microseconds from {@code Metadata.WriteTimestampMicros}.
 */
public record ExportLine(Map<String, AttributeValue> item, Map<String, AttributeValue> keys,
                         Map<String, AttributeValue> newImage, Map<String, AttributeValue> oldImage,
                         Long writeTimestampMicros) {

    static ExportLine of(Map<String, Map<String, AttributeValue>> parts) {
        Map<String, AttributeValue> metadata = parts.get("Metadata");
        Long micros = null;
        if (metadata != null && metadata.get("WriteTimestampMicros") != null) {
            AttributeValue ts = metadata.get("WriteTimestampMicros");
            micros = Long.parseLong(ts.n() != null ? ts.n() : ts.s());
        }
        return new ExportLine(parts.get("Item"), parts.get("Keys"), parts.get("NewImage"), parts.get("OldImage"),
                micros);
    }
}
