package io.dynarestore.testkit;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Creates on-demand tables of a {@link RandomItems.Shape} with a NEW_AND_OLD_IMAGES stream, as protected tables have. */
public final class StreamedTables {

    private StreamedTables() {}

    /** Creates {@code table} (through a {@link StreamsEndpoint}, so that its stream records) and waits until it is ACTIVE. */
    public static void create(DynamoDbClient dynamo, String table, RandomItems.Shape shape) {
        Dynalite.createTable(
                dynamo,
                table,
                shape,
                b -> b.billingMode("PAY_PER_REQUEST")
                        .streamSpecification(
                                s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    }
}
