package io.dynarestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.work.SegmentWork;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class MessageSchemasTest {

    static Stream<Class<?>> messageTypes() {
        var types = new java.util.ArrayList<Class<?>>();
        types.add(RestoreRequested.class);
        for (var sealed : new Class<?>[] {
            RestoreEvent.class,
            SegmentWork.class,
            io.dynarestore.contracts.work.ExportWork.class,
            io.dynarestore.contracts.work.PlanningWork.class,
            io.dynarestore.contracts.links.LinkEvent.class,
            io.dynarestore.contracts.commands.RestoreCommand.class,
            io.dynarestore.contracts.notifications.NotificationEvent.class,
            io.dynarestore.contracts.protection.ProtectionEvent.class,
            io.dynarestore.contracts.protection.ProtectionPolicyEvent.class,
            io.dynarestore.contracts.protection.ScanWork.class
        }) {
            types.addAll(java.util.List.of(sealed.getPermittedSubclasses()));
        }
        return types.stream();
    }

    static Stream<Arguments> randomMessages() {
        return messageTypes().flatMap(type -> IntStream.range(0, 25).mapToObj(seed -> Arguments.of(type, seed)));
    }

    @ParameterizedTest(name = "{0} #{1}")
    @MethodSource("randomMessages")
    void everySerializedMessageValidatesAgainstTheSchemaOfItsType(Class<?> type, int seed) {
        // Given a random instance of the type
        Object message = new RandomMessages(type.getName().hashCode() * 31L + seed).next(type);
        if (message instanceof RestoreRequested r) {
            message = r.normalized("r-" + seed, "e-" + seed, java.time.Instant.EPOCH);
        }

        // When it is serialized the way the services publish it
        JsonNode json = Json.mapper().readTree(Json.toBytes(message));

        // Then its schema accepts it, and it carries its type name
        assertThat(Schemas.validate(type.getSimpleName(), json)).isEmpty();
        assertThat(json.get("type").asString()).isEqualTo(type.getSimpleName());
        // and it reads back equal
        assertThat(Json.mapper().readValue(Json.toBytes(message), (Class<?>) readType(type)))
                .isEqualTo(message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messageTypes")
    void everyRecordComponentIsDescribedByTheSchemaAndViceVersa(Class<?> type) throws Exception {
        // Given the schema of the type
        JsonNode schema;
        try (InputStream in = getClass().getResourceAsStream("/schemas/" + type.getSimpleName() + ".schema.json")) {
            assertThat(in).as("schema file of " + type.getSimpleName()).isNotNull();
            schema = Json.mapper().readTree(in);
        }
        Set<String> schemaProperties = new HashSet<>();
        schema.get("properties").propertyNames().forEach(schemaProperties::add);
        if (schema.has("allOf")) {
            schemaProperties.addAll(Set.of("eventId", "restoreId", "type", "schemaVersion", "occurredAt"));
        }

        // When the record's JSON property names are listed
        Set<String> recordProperties = new HashSet<>();
        recordProperties.add("type");
        for (var component : type.getRecordComponents()) {
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            recordProperties.add(renamed != null ? renamed.value() : component.getName());
        }

        // Then they are the same set: the schema and the code cannot drift apart
        assertThat(schemaProperties).isEqualTo(recordProperties);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messageTypes")
    void everyMessageTypeIsNamedInTheSubtypeListOfItsStream(Class<?> type) {
        if (type == RestoreRequested.class) {
            return;
        }
        Class<?> stream = type.getInterfaces()[0];
        var names = Stream.of(stream.getAnnotation(JsonSubTypes.class).value())
                .map(JsonSubTypes.Type::name)
                .toList();
        assertThat(names).contains(type.getSimpleName());
    }

    private static Class<?> readType(Class<?> type) {
        return type == RestoreRequested.class ? type : type.getInterfaces()[0];
    }
}
