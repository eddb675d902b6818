package io.dynarestore.core.vault;

import io.dynarestore.core.codec.DynamoJson;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;

/**
 * Encodes a change's keys and images once, when it is read, as the members of its incremental-export
 * line ({@code "Keys":{..},"OldImage":{..},"NewImage":{..}}, DynamoDB JSON, without the braces), so
 * that what a capture buffers is one byte array per write instead of a graph of attribute values
 * (which every young collection would copy while the write waits for its flush). Its time is added
 * when it is written ({@link IncrementalExportWriter.Part#writeChange}). Not thread-safe: one per
 * reading thread.
 */
public final class ChangeBodies {

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4_096);
    private final JsonGenerator generator = DynamoJson.generator(buffer);

    /** The members of the line of a change to {@code keys}; an absent image is null (or empty: none). */
    public byte[] encode(
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage) {
        buffer.reset();
        new ExportLine(null, keys, newImage, oldImage, null).write(generator);
        generator.flush();
        byte[] object = buffer.toByteArray();
        return Arrays.copyOfRange(object, 1, object.length - 1); // the members, without '{' and '}'
    }
}
