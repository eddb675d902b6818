package io.dynarestore.protector.backups;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

/** What a backup records of a table besides its items: its description, its tags and its TTL setting. */
record DescribedTable(TableDescription description, List<Tag> tags, TimeToLiveDescription ttl) {

    static DescribedTable of(DynamoDbClient dynamo, String table) {
        TableDescription description =
                dynamo.describeTable(b -> b.tableName(table)).table();
        return new DescribedTable(
                description,
                dynamo.listTagsOfResource(b -> b.resourceArn(description.tableArn()))
                        .tags(),
                dynamo.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription());
    }
}
