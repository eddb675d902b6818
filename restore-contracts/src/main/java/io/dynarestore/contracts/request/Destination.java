package io.dynarestore.contracts.request;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/** Where restored items go. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Destination.NewTable.class, name = "NEW_TABLE"),
        @JsonSubTypes.Type(value = Destination.ExistingTable.class, name = "EXISTING_TABLE"),
        @JsonSubTypes.Type(value = Destination.InPlace.class, name = "IN_PLACE"),
        @JsonSubTypes.Type(value = Destination.File.class, name = "FILE")
})
public sealed interface Destination {

    /**
     * A table created by the restore. Account and region default to the source's; the name
     * defaults to {@code Restored-<source>-<yyyyMMddHHmmss>}.
     */
    record NewTable(String account, String region, String tableName, TableOptions options) implements Destination {
    }

    /** A table that exists already. */
    record ExistingTable(String account, String region, String tableName) implements Destination {
    }

    /** The source table itself. */
    record InPlace() implements Destination {
    }

    /** A file of the matched items (granular recovery). */
    record File(String format, Delivery delivery) implements Destination {
    }

    /**
     * Settings of a restored table. Indexes are included by default: every GSI, and every LSI
     * when the backup has LSIs. Tags are added to the restored table.
     */
    record TableOptions(Boolean includeGlobalSecondaryIndexes, Boolean includeLocalSecondaryIndexes,
                        Map<String, String> tags) {
    }

    /** How a file reaches its reader. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = Delivery.Download.class, name = "DOWNLOAD"),
            @JsonSubTypes.Type(value = Delivery.Email.class, name = "EMAIL")
    })
    sealed interface Delivery {
        record Download() implements Delivery {
        }

        record Email(List<String> recipients, String message) implements Delivery {
        }
    }
}
