package io.dynarestore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * AWS's own model of the DynamoDB API (the Smithy JSON AST that AWS publishes as
 * {@code software.amazon.api.models:dynamodb}), for contract tests of requests that no local
 * server implements: {@link #violations} checks a request body, as the SDK puts it on the wire,
 * against the operation's input shape: known members only, required members present, types,
 * enum values, lengths, ranges and patterns.
 */
public final class ApiShapes {

    private static final String MODEL = "META-INF/smithy/2012-08-10/dynamodb-2012-08-10.json";
    private static final String NS = "com.amazonaws.dynamodb#";
    private static volatile ApiShapes dynamodb;

    private final JsonNode shapes;

    private ApiShapes(JsonNode shapes) {
        this.shapes = shapes;
    }

    /** The DynamoDB API model. */
    public static ApiShapes dynamodb() {
        if (dynamodb == null) {
            try (InputStream in = ApiShapes.class.getClassLoader().getResourceAsStream(MODEL)) {
                if (in == null) {
                    throw new IllegalStateException(MODEL + " is not on the classpath");
                }
                dynamodb =
                        new ApiShapes(JsonMapper.builder().build().readTree(in).get("shapes"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dynamodb;
    }

    /** Whether the API has this operation (for example {@code ImportTable}). */
    public boolean hasOperation(String operation) {
        JsonNode op = shapes.get(NS + operation);
        return op != null && "operation".equals(op.get("type").asString());
    }

    /** What is wrong with {@code body} as the input of {@code operation}; empty when it conforms. */
    public List<String> violations(String operation, JsonNode body) {
        JsonNode op = shapes.get(NS + operation);
        if (op == null || !"operation".equals(op.get("type").asString())) {
            return List.of("DynamoDB has no operation " + operation);
        }
        var problems = new ArrayList<String>();
        check(op.get("input").get("target").asString(), null, body, operation, problems);
        return problems;
    }

    private void check(String target, JsonNode memberTraits, JsonNode value, String path, List<String> problems) {
        if (target.startsWith("smithy.api#")) {
            checkPrelude(target.substring("smithy.api#".length()), value, path, problems);
            return;
        }
        JsonNode shape = shapes.get(target);
        if (shape == null) {
            problems.add(path + ": unknown shape " + target);
            return;
        }
        switch (shape.get("type").asString()) {
            case "structure" -> checkStructure(target, shape, value, path, problems);
            case "list" -> checkList(shape, memberTraits, value, path, problems);
            case "map" -> checkMap(shape, memberTraits, value, path, problems);
            case "enum" -> checkEnum(target, shape, value, path, problems);
            case "string" -> checkString(shape.get("traits"), memberTraits, value, path, problems);
            case "integer", "long", "double" -> checkNumber(shape.get("traits"), memberTraits, value, path, problems);
            case "boolean" -> {
                if (!value.isBoolean()) {
                    problems.add(path + ": must be a boolean");
                }
            }
            case "timestamp" -> {
                if (!value.isNumber()) {
                    problems.add(path + ": must be epoch seconds");
                }
            }
            default -> {
                // blob, union, document: not in the requests we check
            }
        }
    }

    /** Required members present, no member the shape lacks, each member's value checked. */
    private void checkStructure(String target, JsonNode shape, JsonNode value, String path, List<String> problems) {
        if (!value.isObject()) {
            problems.add(path + ": must be an object");
            return;
        }
        JsonNode members = shape.get("members");
        for (Iterator<Map.Entry<String, JsonNode>> it = members.properties().iterator(); it.hasNext(); ) {
            var member = it.next();
            JsonNode mt = member.getValue().get("traits");
            if (mt != null && mt.has("smithy.api#required") && !value.has(member.getKey())) {
                problems.add(path + "." + member.getKey() + ": required");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
            var field = it.next();
            JsonNode member = members.get(field.getKey());
            if (member == null) {
                problems.add(path + "." + field.getKey() + ": not a member of " + target.substring(NS.length()));
                continue;
            }
            if (!field.getValue().isNull()) {
                check(
                        member.get("target").asString(),
                        member.get("traits"),
                        field.getValue(),
                        path + "." + field.getKey(),
                        problems);
            }
        }
    }

    private void checkList(JsonNode shape, JsonNode memberTraits, JsonNode value, String path, List<String> problems) {
        if (!value.isArray()) {
            problems.add(path + ": must be an array");
            return;
        }
        length(shape.get("traits"), memberTraits, value.size(), path, problems);
        for (int i = 0; i < value.size(); i++) {
            check(shape.get("member").get("target").asString(), null, value.get(i), path + "[" + i + "]", problems);
        }
    }

    private void checkMap(JsonNode shape, JsonNode memberTraits, JsonNode value, String path, List<String> problems) {
        if (!value.isObject()) {
            problems.add(path + ": must be an object");
            return;
        }
        length(shape.get("traits"), memberTraits, value.size(), path, problems);
        for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
            var entry = it.next();
            check(
                    shape.get("value").get("target").asString(),
                    null,
                    entry.getValue(),
                    path + "." + entry.getKey(),
                    problems);
        }
    }

    private static void checkEnum(String target, JsonNode shape, JsonNode value, String path, List<String> problems) {
        if (!value.isString()) {
            problems.add(path + ": must be a string");
            return;
        }
        boolean known = false;
        for (JsonNode m : shape.get("members")) {
            JsonNode enumValue =
                    m.get("traits") == null ? null : m.get("traits").get("smithy.api#enumValue");
            if (enumValue != null && enumValue.asString().equals(value.asString())) {
                known = true;
            }
        }
        if (!known) {
            problems.add(path + ": '" + value.asString() + "' is not a value of " + target.substring(NS.length()));
        }
    }

    /** Length in code points and the pattern, from the shape's traits and the member's. */
    private static void checkString(
            JsonNode traits, JsonNode memberTraits, JsonNode value, String path, List<String> problems) {
        if (!value.isString()) {
            problems.add(path + ": must be a string");
            return;
        }
        String text = value.asString();
        length(traits, memberTraits, text.codePointCount(0, text.length()), path, problems);
        for (JsonNode t : new JsonNode[] {traits, memberTraits}) {
            if (t != null
                    && t.has("smithy.api#pattern")
                    && !Pattern.compile(t.get("smithy.api#pattern").asString())
                            .matcher(text)
                            .find()) {
                problems.add(path + ": '" + text + "' does not match "
                        + t.get("smithy.api#pattern").asString());
            }
        }
    }

    private static void checkNumber(
            JsonNode traits, JsonNode memberTraits, JsonNode value, String path, List<String> problems) {
        if (!value.isNumber()) {
            problems.add(path + ": must be a number");
            return;
        }
        for (JsonNode t : new JsonNode[] {traits, memberTraits}) {
            JsonNode range = t == null ? null : t.get("smithy.api#range");
            if (range == null) {
                continue;
            }
            boolean below =
                    range.has("min") && value.asDouble() < range.get("min").asDouble();
            boolean above =
                    range.has("max") && value.asDouble() > range.get("max").asDouble();
            if (below || above) {
                problems.add(path + ": " + value + " is outside " + range);
            }
        }
    }

    private static void checkPrelude(String type, JsonNode value, String path, List<String> problems) {
        boolean ok = switch (type) {
            case "String" -> value.isString();
            case "Boolean", "PrimitiveBoolean" -> value.isBoolean();
            case "Integer", "Long", "PrimitiveInteger", "PrimitiveLong", "Double" -> value.isNumber();
            default -> true;
        };
        if (!ok) {
            problems.add(path + ": must be a " + type);
        }
    }

    private static void length(JsonNode traits, JsonNode memberTraits, int size, String path, List<String> problems) {
        for (JsonNode t : new JsonNode[] {traits, memberTraits}) {
            JsonNode length = t == null ? null : t.get("smithy.api#length");
            if (length != null
                    && (length.has("min") && size < length.get("min").asInt()
                            || length.has("max") && size > length.get("max").asInt())) {
                problems.add(path + ": length " + size + " is outside " + length);
            }
        }
    }
}
