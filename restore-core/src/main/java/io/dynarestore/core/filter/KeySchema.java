package io.dynarestore.core.filter;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** A table's key: the partition key and the optional sort key, with their types (S, N or B). */
public record KeySchema(String partitionKey, String partitionType, String sortKey, String sortType) {

    public static KeySchema of(TableDescription table) {
        String pk = null;
        String sk = null;
        for (var k : table.keySchema()) {
            if (k.keyType() == KeyType.HASH) {
                pk = k.attributeName();
            } else {
                sk = k.attributeName();
            }
        }
        return new KeySchema(pk, typeOf(table, pk), sk, sk == null ? null : typeOf(table, sk));
    }

    /** The attribute names of a key schema (a table's or a stream's), partition key first. */
    public static List<String> attributeNames(List<KeySchemaElement> keySchema) {
        var names = new ArrayList<String>(2);
        keySchema.stream().filter(k -> k.keyType() == KeyType.HASH).forEach(k -> names.add(k.attributeName()));
        keySchema.stream().filter(k -> k.keyType() == KeyType.RANGE).forEach(k -> names.add(k.attributeName()));
        return names;
    }

    /** From names and types listed partition key first, as work items carry them. */
    public static KeySchema of(List<String> names, List<String> types) {
        return new KeySchema(
                names.get(0),
                types.get(0),
                names.size() > 1 ? names.get(1) : null,
                names.size() > 1 ? types.get(1) : null);
    }

    private static String typeOf(TableDescription table, String attribute) {
        return table.attributeDefinitions().stream()
                .filter(a -> a.attributeName().equals(attribute))
                .map(a -> a.attributeTypeAsString())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no attribute definition for key " + attribute));
    }

    public List<String> names() {
        var names = new ArrayList<String>(2);
        names.add(partitionKey);
        if (sortKey != null) {
            names.add(sortKey);
        }
        return names;
    }

    public List<String> types() {
        var types = new ArrayList<String>(2);
        types.add(partitionType);
        if (sortKey != null) {
            types.add(sortType);
        }
        return types;
    }
}
