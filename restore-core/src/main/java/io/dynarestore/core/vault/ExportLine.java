package io.dynarestore.core.vault;

import io.dynarestore.core.codec.DynamoJson;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;

/**
 * One line of an export data file. A full export line has {@code Item}; an incremental export
 * line has {@code Keys}, {@code NewImage} (absent for a delete), {@code OldImage} and the write
 * time in microseconds from {@code Metadata.WriteTimestampMicros}.
 */
public record ExportLine(
        Map<String, AttributeValue> item,
        Map<String, AttributeValue> keys,
        Map<String, AttributeValue> newImage,
        Map<String, AttributeValue> oldImage,
        Long writeTimestampMicros) {

    /** A change: {@code newImage} {@code null} for a delete, {@code oldImage} {@code null} for a create. */
    public static ExportLine change(
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage,
            long writeTimestampMicros) {
        return new ExportLine(null, keys, newImage, oldImage, writeTimestampMicros);
    }

    public static ExportLine item(Map<String, AttributeValue> item) {
        return new ExportLine(item, null, null, null, null);
    }

    /** Whether this line deletes its key (a change with no new image). */
    public boolean isDelete() {
        return item == null && newImage == null;
    }

    /** The image this line leaves: the item of a full export, the new image of a change. */
    public Map<String, AttributeValue> image() {
        return item != null ? item : newImage;
    }

    /** Writes this line as AWS does: {@code Item}, or {@code Metadata}, {@code Keys}, {@code OldImage}, {@code NewImage}. */
    public void write(JsonGenerator g) {
        g.writeStartObject();
        if (item != null) {
            g.writeName("Item");
            DynamoJson.writeItem(g, item);
        } else {
            if (writeTimestampMicros != null) {
                g.writeName("Metadata");
                g.writeStartObject();
                g.writeName("WriteTimestampMicros");
                g.writeStartObject();
                g.writeName("N").writeString(Long.toString(writeTimestampMicros));
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeName("Keys");
            DynamoJson.writeItem(g, keys);
            if (oldImage != null) {
                g.writeName("OldImage");
                DynamoJson.writeItem(g, oldImage);
            }
            if (newImage != null) {
                g.writeName("NewImage");
                DynamoJson.writeItem(g, newImage);
            }
        }
        g.writeEndObject();
    }

    static ExportLine of(Map<String, Map<String, AttributeValue>> parts) {
        Map<String, AttributeValue> metadata = parts.get("Metadata");
        Long micros = null;
        if (metadata != null && metadata.get("WriteTimestampMicros") != null) {
            AttributeValue ts = metadata.get("WriteTimestampMicros");
            micros = Long.parseLong(ts.n() != null ? ts.n() : ts.s());
        }
        return new ExportLine(
                parts.get("Item"), parts.get("Keys"), parts.get("NewImage"), parts.get("OldImage"), micros);
    }
}
