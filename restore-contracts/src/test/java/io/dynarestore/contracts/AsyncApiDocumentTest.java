package io.dynarestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.work.SegmentWork;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class AsyncApiDocumentTest {

    private static JsonNode document() throws Exception {
        try (InputStream in = AsyncApiDocumentTest.class.getResourceAsStream("/asyncapi.yaml")) {
            return new YAMLMapper().readTree(in);
        }
    }

    @Test
    void describesEveryMessageTypeWithItsSchemaFile() throws Exception {
        // Given the AsyncAPI document
        JsonNode doc = document();
        assertThat(doc.get("asyncapi").asString()).startsWith("3.");

        // When its messages are listed
        Set<String> messages = new HashSet<>();
        doc.get("components").get("messages").propertyNames().forEach(messages::add);

        // Then every request, status and work type is there, and every payload file exists
        var expected = new HashSet<String>();
        expected.add("RestoreRequested");
        Stream.of(RestoreEvent.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(SegmentWork.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.work.ExportWork.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.work.PlanningWork.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.commands.RestoreCommand.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.links.LinkEvent.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.notifications.NotificationEvent.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        Stream.of(io.dynarestore.contracts.protection.ProtectionEvent.class.getPermittedSubclasses())
                .map(Class::getSimpleName)
                .forEach(expected::add);
        expected.add("ProtectionSet");
        expected.add("ScanSegmentRequested");
        assertThat(messages).isEqualTo(expected);
        for (String m : messages) {
            String ref = doc.get("components")
                    .get("messages")
                    .get(m)
                    .get("payload")
                    .get("$ref")
                    .asString();
            assertThat(getClass().getResource("/" + ref.replace("./", "")))
                    .as(ref)
                    .isNotNull();
        }
    }

    @Test
    void namesOnlyTopicsOfTheTopicList() throws Exception {
        // Given the channel addresses of the document
        JsonNode doc = document();
        Set<String> addresses = new HashSet<>();
        doc.get("channels")
                .forEach(channel -> addresses.add(channel.get("address").asString()));

        // Then each is a topic of Topic (or its dead-letter topic), and the status channel
        // lists every status event
        assertThat(Topic.allNames()).containsAll(addresses);
        Set<String> statusMessages = new HashSet<>();
        doc.get("channels").get("status").get("messages").propertyNames().forEach(statusMessages::add);
        assertThat(statusMessages)
                .containsExactlyInAnyOrderElementsOf(Stream.of(RestoreEvent.class.getPermittedSubclasses())
                        .map(Class::getSimpleName)
                        .toList());
    }
}
