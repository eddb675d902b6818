package io.dynarestore.core.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.codec.DynamoJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StreamRecordBodiesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static final String ANSWER = """
            {"NextShardIterator":"it-2","Records":[
             {"awsRegion":"us-east-1","dynamodb":{"ApproximateCreationDateTime":1.7645832E9,
               "Keys":{"pk":{"S":"a"},"sk":{"N":"1"}},
               "NewImage":{"pk":{"S":"a"},"sk":{"N":"1"},"m":{"M":{"x":{"L":[{"S":"é\\u00e9"},{"B":"AAE="}]}}}},
               "SequenceNumber":"100000000000000000001","SizeBytes":40,"StreamViewType":"NEW_AND_OLD_IMAGES"},
              "eventID":"e1","eventName":"INSERT","eventSource":"aws:dynamodb","eventVersion":"1.1"},
             {"dynamodb":{"Keys":{"pk":{"S":"b"},"sk":{"N":"2"}},"OldImage":{"pk":{"S":"b"},"sk":{"N":"2"},"n":{"NULL":true}},
               "NewImage":{ },"SequenceNumber":"100000000000000000002","ApproximateCreationDateTime":1764583201.75},
              "eventName":"REMOVE"}]}""";

    @Test
    void takesEachRecordsPositionSecondSizeKeysAndImagesAsTheServiceSentThem() {
        // When the answer of a GetRecords is cut into bodies
        List<StreamRecordBodies.Body> bodies = StreamRecordBodies.parse(ANSWER.getBytes(StandardCharsets.UTF_8));

        // Then each record's members are its keys and images, byte for byte, an empty image left out
        assertThat(bodies)
                .extracting(StreamRecordBodies.Body::sequenceNumber)
                .containsExactly("100000000000000000001", "100000000000000000002");
        assertThat(bodies).extracting(StreamRecordBodies.Body::second).containsExactly(1_764_583_200L, 1_764_583_201L);
        assertThat(bodies).extracting(StreamRecordBodies.Body::sizeBytes).containsExactly(40L, 0L);
        JsonNode first = JSON.readTree("{" + new String(bodies.get(0).members(), StandardCharsets.UTF_8) + "}");
        JsonNode answer = JSON.readTree(ANSWER).path("Records");
        assertThat(first.path("Keys")).isEqualTo(answer.get(0).path("dynamodb").path("Keys"));
        assertThat(first.path("NewImage"))
                .isEqualTo(answer.get(0).path("dynamodb").path("NewImage"));
        assertThat(first.has("OldImage")).isFalse();
        JsonNode second = JSON.readTree("{" + new String(bodies.get(1).members(), StandardCharsets.UTF_8) + "}");
        assertThat(second.has("NewImage")).isFalse();
        assertThat(DynamoJson.fromJson(second.path("OldImage").toString())).containsKey("n");
        assertThat(second.path("Keys").path("pk").path("S").asString()).isEqualTo("b");
    }

    static java.util.stream.Stream<Integer> seeds() {
        return java.util.stream.IntStream.range(0, 30).boxed();
    }

    /** Random items of every attribute type in random answers: each body is what a JSON parser reads there. */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.MethodSource("seeds")
    void cutsRandomAnswersExactlyWhereAParserSeesTheKeysAndImages(int seed) {
        var random = new java.util.Random(seed);
        var items = new io.dynarestore.testkit.RandomItems(seed, io.dynarestore.testkit.RandomItems.Shape.simple());
        var answer = JSON.createObjectNode();
        answer.put("NextShardIterator", "it");
        var records = answer.putArray("Records");
        int n = random.nextInt(20);
        for (int i = 0; i < n; i++) {
            var r = records.addObject();
            r.put("eventID", "e\"" + i + "}{");
            var d = r.putObject("dynamodb");
            d.put("ApproximateCreationDateTime", 1.7e9 + i + random.nextInt(1_000) / 1_000.0);
            var item = items.item(i, random.nextInt(3));
            d.set(
                    "Keys",
                    JSON.readTree(DynamoJson.toJson(java.util.Map.of("pk", item.get("pk"), "sk", item.get("sk")))));
            if (random.nextBoolean()) {
                d.set("NewImage", JSON.readTree(DynamoJson.toJson(item)));
            }
            if (random.nextBoolean()) {
                d.set("OldImage", JSON.readTree(DynamoJson.toJson(items.item(i, 7))));
            }
            d.put("SequenceNumber", Long.toString(100_000 + i));
            d.put("SizeBytes", 10 + i);
        }
        String text = random.nextBoolean() ? answer.toString() : answer.toPrettyString();

        var bodies = StreamRecordBodies.parse(text.getBytes(StandardCharsets.UTF_8));

        assertThat(bodies).hasSize(n);
        for (int i = 0; i < n; i++) {
            JsonNode expected = answer.path("Records").get(i).path("dynamodb");
            JsonNode got = JSON.readTree("{" + new String(bodies.get(i).members(), StandardCharsets.UTF_8) + "}");
            assertThat(bodies.get(i).sequenceNumber())
                    .isEqualTo(expected.path("SequenceNumber").asString());
            assertThat(bodies.get(i).second()).isEqualTo(1_700_000_000L + i);
            assertThat(bodies.get(i).sizeBytes()).isEqualTo(10L + i);
            for (String part : List.of("Keys", "OldImage", "NewImage")) {
                assertThat(got.path(part)).as(part).isEqualTo(expected.path(part));
            }
        }
    }

    /** Strings of every length up to 40 whose quotes and backslashes fall at every offset of an eight-byte word. */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.MethodSource("seeds")
    void findsTheEndOfStringsWhereverTheirEscapesFall(int seed) {
        var random = new java.util.Random(seed);
        String alphabet = "ab\"\\é{}[]:,\u00e9x";
        var answer = JSON.createObjectNode();
        var records = answer.putArray("Records");
        var values = new java.util.ArrayList<String>();
        for (int i = 0; i < 41; i++) {
            var value = new StringBuilder();
            for (int c = 0; c < i; c++) {
                value.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            values.add(value.toString());
            var d = records.addObject().putObject("dynamodb");
            d.put("ApproximateCreationDateTime", 1_800_000_000L);
            d.putObject("Keys").putObject("pk").put("S", value.toString());
            d.put("SequenceNumber", value.toString() + i);
        }

        var bodies = StreamRecordBodies.parse(answer.toString().getBytes(StandardCharsets.UTF_8));

        assertThat(bodies).hasSize(values.size());
        for (int i = 0; i < values.size(); i++) {
            JsonNode got = JSON.readTree("{" + new String(bodies.get(i).members(), StandardCharsets.UTF_8) + "}");
            assertThat(got.path("Keys").path("pk").path("S").asString()).isEqualTo(values.get(i));
        }
    }

    @Test
    void anAnswerWithoutRecordsHasNoBodiesAndNoAnswerGivesNothingToTake() {
        assertThat(StreamRecordBodies.take()).isEmpty();
        assertThat(StreamRecordBodies.parse("{\"Records\":[]}".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(StreamRecordBodies.parse("{\"NextShardIterator\":null}".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    /** A record that lacks what a capture needs is not cut: the SDK reads the answer whole. */
    @org.junit.jupiter.params.ParameterizedTest(name = "without {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"SequenceNumber", "Keys", "ApproximateCreationDateTime"})
    void aRecordWithoutItsPositionKeysOrTimeCannotBeCut(String missing) {
        var answer = (tools.jackson.databind.node.ObjectNode) JSON.readTree(ANSWER);
        ((tools.jackson.databind.node.ObjectNode) answer.path("Records").get(1).path("dynamodb")).remove(missing);

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> StreamRecordBodies.cut(answer.toString().getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Random answers whose records' members come in random orders: what the SDK is handed is the
     * answer, member for member, with an empty Records array, and the bodies hold every record.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "seed {0}")
    @org.junit.jupiter.params.provider.MethodSource("seeds")
    void handsTheSdkEachRandomAnswerWithoutItsRecordsAndOtherwiseUnchanged(int seed) {
        // Given a random answer, each record's members shuffled, compact or pretty
        var random = new java.util.Random(seed);
        var items = new io.dynarestore.testkit.RandomItems(seed, io.dynarestore.testkit.RandomItems.Shape.simple());
        var answer = JSON.createObjectNode();
        var records = answer.putArray("Records");
        int n = 1 + random.nextInt(10);
        for (int i = 0; i < n; i++) {
            var item = items.item(i, random.nextInt(3));
            var members = new java.util.ArrayList<java.util.Map.Entry<String, JsonNode>>();
            members.add(java.util.Map.entry(
                    "Keys",
                    JSON.readTree(DynamoJson.toJson(java.util.Map.of("pk", item.get("pk"), "sk", item.get("sk"))))));
            members.add(
                    java.util.Map.entry("SequenceNumber", JSON.getNodeFactory().textNode("" + (100 + i))));
            members.add(java.util.Map.entry("SizeBytes", JSON.getNodeFactory().numberNode(10 + i)));
            members.add(java.util.Map.entry(
                    "ApproximateCreationDateTime", JSON.getNodeFactory().numberNode(1_800_000_000L + i)));
            if (random.nextBoolean()) {
                members.add(java.util.Map.entry("NewImage", JSON.readTree(DynamoJson.toJson(item))));
            }
            if (random.nextBoolean()) {
                members.add(java.util.Map.entry("OldImage", JSON.readTree(DynamoJson.toJson(items.item(i, 7)))));
            }
            java.util.Collections.shuffle(members, random);
            var d = records.addObject().putObject("dynamodb");
            members.forEach(m -> d.set(m.getKey(), m.getValue()));
        }
        answer.put("NextShardIterator", "it");
        String text = random.nextBoolean() ? answer.toString() : answer.toPrettyString();

        // When it is cut
        var cut = StreamRecordBodies.cut(text.getBytes(StandardCharsets.UTF_8));

        // Then the SDK's answer is the same JSON with no record, and the bodies hold them
        var expected = answer.deepCopy();
        expected.putArray("Records");
        assertThat(JSON.readTree(new String(cut.withoutRecords(), StandardCharsets.UTF_8)))
                .isEqualTo(expected);
        assertThat(cut.bodies()).hasSize(n);
        for (int i = 0; i < n; i++) {
            JsonNode sent = answer.path("Records").get(i).path("dynamodb");
            JsonNode body =
                    JSON.readTree("{" + new String(cut.bodies().get(i).members(), StandardCharsets.UTF_8) + "}");
            assertThat(body.path("Keys")).isEqualTo(sent.path("Keys"));
            assertThat(body.path("NewImage")).isEqualTo(sent.path("NewImage"));
            assertThat(body.path("OldImage")).isEqualTo(sent.path("OldImage"));
            assertThat(cut.bodies().get(i).second()).isEqualTo(1_800_000_000L + i);
        }
    }
}
