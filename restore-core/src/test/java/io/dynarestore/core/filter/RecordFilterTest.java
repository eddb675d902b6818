package io.dynarestore.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.codec.DynamoJson;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RecordFilterTest {

    static final KeySchema KEY = new KeySchema("pk", "S", "sk", "N");

    /** An attribute filter on "a" alone, with a key filter that every test item matches. */
    static RecordFilter attributeFilter(String type, String condition, String values) {
        List<String> operands = values == null ? List.of() : Arrays.asList(values.split(";", -1));
        return RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("")), null)),
                        List.of(new Scope.AttributeFilter("a", type, condition, operands))),
                KEY);
    }

    static Map<String, AttributeValue> item(String a) {
        var item = new HashMap<String, AttributeValue>();
        item.put("pk", AttributeValue.fromS("p"));
        item.put("sk", AttributeValue.fromN("1"));
        if (a != null) {
            item.put("a", DynamoJson.fromJson("{\"a\":" + a + "}").get("a"));
        }
        return item;
    }

    @ParameterizedTest(name = "{0} {1} [{2}] on {3} -> {4}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // strings: UTF-8 byte order, empty strings, substrings, sets
                "S | EqualTo              | abc       | {\"S\":\"abc\"}          | true",
                "S | EqualTo              | abc       | {\"S\":\"abd\"}          | false",
                "S | EqualTo              | ''        | {\"S\":\"\"}             | true",
                "S | NotEqualTo           | abc       | {\"S\":\"abd\"}          | true",
                "S | LessThan             | b         | {\"S\":\"abc\"}          | true",
                "S | LessThan             | z         | {\"S\":\"é\"}            | false",
                "S | GreaterThan          | Ａ        | {\"S\":\"😀\"}           | true",
                "S | LessThanOrEqualTo    | abc       | {\"S\":\"abc\"}          | true",
                "S | GreaterThanOrEqualTo | abd       | {\"S\":\"abc\"}          | false",
                "S | Between              | a;b       | {\"S\":\"abc\"}          | true",
                "S | Between              | b;c       | {\"S\":\"abc\"}          | false",
                "S | BeginsWith           | ab        | {\"S\":\"abc\"}          | true",
                "S | BeginsWith           | ''        | {\"S\":\"abc\"}          | true",
                "S | BeginsWith           | bc        | {\"S\":\"abc\"}          | false",
                "S | Contains             | bc        | {\"S\":\"abc\"}          | true",
                "S | Contains             | x         | {\"SS\":[\"x\",\"y\"]}   | true",
                "S | NotContains          | z         | {\"S\":\"abc\"}          | true",
                "S | NotContains          | b         | {\"S\":\"abc\"}          | false",
                // numbers: decimals, exponents, negative, not doubles
                "N | EqualTo              | 1E+3      | {\"N\":\"1000\"}         | true",
                "N | EqualTo              | 1.50      | {\"N\":\"1.5\"}          | true",
                "N | EqualTo              | 0.1       | {\"N\":\"0.1000000000000000055511151231257827\"} | false",
                "N | LessThan             | 1.5E-2    | {\"N\":\"0.01\"}         | true",
                "N | GreaterThan          | -2        | {\"N\":\"-1.5\"}         | true",
                "N | Between              | -1;1      | {\"N\":\"0\"}            | true",
                "N | Between              | 99999999999999999999999999999999999998;99999999999999999999999999999999999999 | {\"N\":\"99999999999999999999999999999999999999\"} | true",
                "N | NotEqualTo           | 5         | {\"N\":\"5.0\"}          | false",
                // binary: unsigned bytes, prefixes
                "B | EqualTo              | AAEC      | {\"B\":\"AAEC\"}         | true",
                "B | BeginsWith           | AAE=      | {\"B\":\"AAEC\"}         | true",
                "B | BeginsWith           | AQ==      | {\"B\":\"AAEC\"}         | false",
                "B | GreaterThan          | AQ==      | {\"B\":\"/w==\"}         | true",
                "B | Contains             | AQI=      | {\"B\":\"AAECAw==\"}     | true",
                "B | Contains             | AQ==      | {\"BS\":[\"AQ==\"]}      | true",
                // booleans and nulls
                "BOOL | EqualTo           | true      | {\"BOOL\":true}          | true",
                "BOOL | EqualTo           | true      | {\"BOOL\":false}         | false",
                "BOOL | NotEqualTo        | true      | {\"BOOL\":false}         | true",
                "NULL | EqualTo           | true      | {\"NULL\":true}          | true",
                "NULL | EqualTo           | true      | {\"S\":\"x\"}            | false",
                // missing attributes and other types never compare
                "S | Exists               | -         | {\"S\":\"\"}             | true",
                "S | Exists               | -         | -                          | false",
                "S | NotExists            | -         | -                          | true",
                "S | EqualTo              | x         | -                          | false",
                "S | NotEqualTo           | x         | -                          | true",
                "S | LessThan             | x         | -                          | false",
                "S | NotContains          | x         | -                          | true",
                "N | EqualTo              | 1         | {\"S\":\"1\"}            | false",
                "N | NotEqualTo           | 1         | {\"S\":\"1\"}            | true",
                "N | LessThan             | 5         | {\"S\":\"1\"}            | false",
                "S | BeginsWith           | 1         | {\"N\":\"12\"}           | false",
            })
    void evaluatesEachConditionOnEachTypeAsDynamoDbDoes(
            String type, String condition, String values, String attribute, boolean expected) {
        String operands = "''".equals(values) ? "" : values;
        assertThat(attributeFilter(type, condition, operands).matches(item(attribute)))
                .isEqualTo(expected);
    }

    @Test
    void matchesWhenAnyKeyFilterMatchesAndEveryAttributeFilterDoes() {
        // Given two key filters (customer c#1 after 2026, or customer c#2) and one attribute filter
        var filter = RecordFilter.compile(
                new Scope.Records(
                        List.of(
                                new Scope.KeyFilter(
                                        new Scope.Condition("EqualTo", List.of("c#1")),
                                        new Scope.Condition("GreaterThanOrEqualTo", List.of("2026"))),
                                new Scope.KeyFilter(new Scope.Condition("pk", "EqualTo", List.of("c#2")), null)),
                        List.of(new Scope.AttributeFilter("status", "S", "EqualTo", List.of("FAILED")))),
                KEY);

        // Then
        assertThat(filter.matches(keyed("c#1", "2027", "FAILED"))).isTrue();
        assertThat(filter.matches(keyed("c#1", "2025", "FAILED"))).isFalse();
        assertThat(filter.matches(keyed("c#2", "1", "FAILED"))).isTrue();
        assertThat(filter.matches(keyed("c#2", "1", "OK"))).isFalse();
        assertThat(filter.matches(keyed("c#3", "2027", "FAILED"))).isFalse();
    }

    static Map<String, AttributeValue> keyed(String pk, String sk, String status) {
        return Map.of(
                "pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromN(sk), "status", AttributeValue.fromS(status));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not a number            | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"a\"]}}],\"attributeFilters\":[{\"name\":\"n\",\"type\":\"N\",\"condition\":\"EqualTo\",\"values\":[\"abc\"]}]} | /scope/attributeFilters/0/values/0 | decimal",
                "missing operand         | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\"}}]}                                                            | /scope/keyFilters/0/partitionKey/values | one value",
                "BeginsWith on a number  | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"a\"]},\"sortKey\":{\"condition\":\"BeginsWith\",\"values\":[\"1\"]}}]} | /scope/keyFilters/0/sortKey/condition | strings and binary",
                "key filter on non-key   | {\"keyFilters\":[{\"partitionKey\":{\"name\":\"status\",\"condition\":\"EqualTo\",\"values\":[\"a\"]}}]}                   | /scope/keyFilters/0/partitionKey/name | not the table's partition key (pk)",
                "no key filters          | {\"keyFilters\":[]}                                                                                                          | /scope/keyFilters | at least one",
                "reversed Between        | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"Between\",\"values\":[\"b\",\"a\"]}}]}                               | /scope/keyFilters/0/partitionKey/values | lower bound first",
                "BOOL that is not a bool | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"a\"]}}],\"attributeFilters\":[{\"name\":\"b\",\"type\":\"BOOL\",\"condition\":\"EqualTo\",\"values\":[\"yes\"]}]} | /scope/attributeFilters/0/values/0 | true or false",
                "Exists on a key         | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"Exists\"}}]}                                                              | /scope/keyFilters/0/partitionKey/condition | always exists",
                "bad base64              | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"a\"]}}],\"attributeFilters\":[{\"name\":\"b\",\"type\":\"B\",\"condition\":\"EqualTo\",\"values\":[\"%%%\"]}]} | /scope/attributeFilters/0/values/0 | base64",
                "range on a boolean      | {\"keyFilters\":[{\"partitionKey\":{\"condition\":\"EqualTo\",\"values\":[\"a\"]}}],\"attributeFilters\":[{\"name\":\"b\",\"type\":\"BOOL\",\"condition\":\"LessThan\",\"values\":[\"true\"]}]} | /scope/attributeFilters/0/condition | ordered values",
            })
    void rejectsAFilterItCannotApplyNamingItAndTheFix(String name, String scope, String field, String hint) {
        var records = io.dynarestore.contracts.Json.mapper()
                .readValue("{\"type\":\"RECORDS\"," + scope.substring(1), Scope.class);
        assertThatThrownBy(() -> RecordFilter.compile((Scope.Records) records, KEY))
                .isInstanceOfSatisfying(InvalidFilterException.class, e -> {
                    assertThat(e.errors()).extracting(FieldError::field).contains(field);
                    assertThat(e.getMessage()).contains(hint);
                });
    }

    @Test
    void rejectsASortKeyFilterOnATableWithoutASortKey() {
        var records = new Scope.Records(
                List.of(new Scope.KeyFilter(
                        new Scope.Condition("EqualTo", List.of("a")), new Scope.Condition("EqualTo", List.of("1")))),
                null);
        assertThatThrownBy(() -> RecordFilter.compile(records, new KeySchema("pk", "S", null, null)))
                .isInstanceOfSatisfying(
                        InvalidFilterException.class,
                        e -> assertThat(e.errors().get(0).message()).contains("no sort key"));
    }
}
