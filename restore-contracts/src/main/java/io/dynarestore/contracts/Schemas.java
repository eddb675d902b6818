package io.dynarestore.contracts;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The JSON Schemas of every message type, one file per type under {@code schemas/} in this
 * jar, each with the {@code $id} {@code https://dynarestore.io/schemas/<Type>.schema.json}.
 * Formats ({@code date-time}, {@code email}, {@code uri}) are asserted, not only annotated.
 */
public final class Schemas {

    public static final String BASE_URI = "https://dynarestore.io/schemas/";

    // format keywords (date-time, email, uri) are assertions here, not the annotations 2020-12 makes them by default
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix(BASE_URI, "classpath:schemas/"))
                    .schemaRegistryConfig(SchemaRegistryConfig.builder()
                            .formatAssertionsEnabled(true)
                            .build()));

    private static final Map<String, Schema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {}

    public static String uriOf(String type) {
        return BASE_URI + type + ".schema.json";
    }

    /** The problems of {@code json} as a message of {@code type}; empty when it is valid. */
    public static List<FieldError> validate(String type, JsonNode json) {
        Schema schema = CACHE.computeIfAbsent(type, t -> REGISTRY.getSchema(SchemaLocation.of(uriOf(t))));
        var problems = new ArrayList<FieldError>();
        for (Error error : schema.validate(json)) {
            problems.add(new FieldError(pointer(error), error.getMessage()));
        }
        return problems;
    }

    private static String pointer(Error error) {
        var location = error.getInstanceLocation().toString();
        // "$.source.table" -> "/source/table", and the missing property of a 'required' error
        var path = location.replaceFirst("^\\$", "").replace('.', '/').replaceAll("\\[(\\d+)]", "/$1");
        if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
            path = path + "/" + error.getProperty();
        }
        return path;
    }
}
