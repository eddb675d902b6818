package io.dynarestore.testkit;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Compares tables item for item without holding their items: each item becomes its key (as a
 * canonical string) and a SHA-256 of its canonical form, in which attributes are sorted by
 * name, sets are sorted (DynamoDB does not keep set order) and numbers are compared as decimals.
 */
public final class ItemDigests {

    private ItemDigests() {}

    public static String canonical(Map<String, AttributeValue> item) {
        var sb = new StringBuilder();
        append(sb, AttributeValue.fromM(item));
        return sb.toString();
    }

    public static String digest(Map<String, AttributeValue> item) {
        try {
            byte[] hash =
                    MessageDigest.getInstance("SHA-256").digest(canonical(item).getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String key(Map<String, AttributeValue> item, List<String> keyAttributes) {
        var sb = new StringBuilder();
        for (String k : keyAttributes) {
            append(sb, item.get(k));
            sb.append('|');
        }
        return sb.toString();
    }

    /** key to digest of every item of a table, by a full Scan. */
    public static TreeMap<String, String> ofTable(DynamoDbClient dynamo, String table, List<String> keyAttributes) {
        var result = new TreeMap<String, String>();
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = dynamo.scan(ScanRequest.builder()
                    .tableName(table)
                    .exclusiveStartKey(start)
                    .build());
            for (var item : page.items()) {
                result.put(key(item, keyAttributes), digest(item));
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return result;
    }

    /** key to digest of the given items. */
    public static TreeMap<String, String> of(Iterable<Map<String, AttributeValue>> items, List<String> keyAttributes) {
        var result = new TreeMap<String, String>();
        for (var item : items) {
            result.put(key(item, keyAttributes), digest(item));
        }
        return result;
    }

    private static void append(StringBuilder sb, AttributeValue v) {
        if (v == null) {
            sb.append("<absent>");
            return;
        }
        switch (v.type()) {
            case S -> sb.append("S:").append(quote(v.s()));
            case N -> sb.append("N:").append(num(v.n()));
            case B -> sb.append("B:").append(b64(v.b()));
            case BOOL -> sb.append("BOOL:").append(v.bool());
            case NUL -> sb.append("NULL");
            case SS ->
                sb.append("SS:")
                        .append(sorted(v.ss().stream().map(ItemDigests::quote).toList()));
            case NS ->
                sb.append("NS:")
                        .append(sorted(v.ns().stream().map(ItemDigests::num).toList()));
            case BS ->
                sb.append("BS:")
                        .append(sorted(v.bs().stream().map(ItemDigests::b64).toList()));
            case L -> {
                sb.append("L[");
                for (AttributeValue e : v.l()) {
                    append(sb, e);
                    sb.append(',');
                }
                sb.append(']');
            }
            case M -> {
                sb.append("M{");
                for (var e : new TreeMap<>(v.m()).entrySet()) {
                    sb.append(quote(e.getKey())).append('=');
                    append(sb, e.getValue());
                    sb.append(',');
                }
                sb.append('}');
            }
            default -> throw new IllegalArgumentException("unknown type " + v);
        }
    }

    private static String sorted(List<String> values) {
        var copy = new ArrayList<>(values);
        copy.sort(null);
        return copy.toString();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static String num(String n) {
        BigDecimal d = new BigDecimal(n).stripTrailingZeros();
        return d.signum() == 0 ? "0" : d.toPlainString();
    }

    private static String b64(SdkBytes b) {
        return Base64.getEncoder().encodeToString(b.asByteArrayUnsafe());
    }
}
