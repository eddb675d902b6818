package io.dynarestore.core.table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * The tag that marks a table a restore created ({@value #RESTORE_TAG} = the restore's id): a new
 * table gets the backup's tags, then the request's, then this one, and a restore that finds its
 * destination already there goes on only if the table carries its own id.
 */
public final class RestoreTags {

    /** Tag that marks a table as created by a restore, with the restore's id. */
    public static final String RESTORE_TAG = "dynarestore:restore-id";

    private RestoreTags() {}

    /** The backup's tags, then the request's, then the restore's own tag. */
    public static List<Tag> of(String restoreId, List<Tag> backupTags, Map<String, String> requested) {
        var merged = new LinkedHashMap<String, String>();
        if (backupTags != null) {
            backupTags.forEach(t -> merged.put(t.key(), t.value()));
        }
        if (requested != null) {
            merged.putAll(requested);
        }
        merged.put(RESTORE_TAG, restoreId);
        var tags = new ArrayList<Tag>();
        merged.forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        return tags;
    }

    /** Whether {@code table} carries the tag of restore {@code restoreId}. */
    public static boolean createdBy(DynamoDbClient dynamo, TableDescription table, String restoreId) {
        return dynamo.listTagsOfResource(b -> b.resourceArn(table.tableArn())).tags().stream()
                .anyMatch(t -> RESTORE_TAG.equals(t.key()) && restoreId.equals(t.value()));
    }
}
