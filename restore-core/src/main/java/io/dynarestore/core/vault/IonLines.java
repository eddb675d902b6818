package io.dynarestore.core.vault;

import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The values of a DynamoDB export in ION format, as AWS maps them: a string is {@code S}, a decimal
 * (or an int or a float) {@code N}, a blob {@code B}, a bool {@code BOOL}, a null {@code NULL}, a
 * struct {@code M}, a list {@code L}, and a list annotated {@code $dynamodb_SS}, {@code $dynamodb_NS}
 * or {@code $dynamodb_BS} the set of that type. A top-level struct is one line of the export: its
 * {@code Item}, or its {@code Metadata}, {@code Keys}, {@code OldImage} and {@code NewImage}.
 */
final class IonLines {

    static final String STRING_SET = "$dynamodb_SS";
    static final String NUMBER_SET = "$dynamodb_NS";
    static final String BINARY_SET = "$dynamodb_BS";

    private IonLines() {}

    /** The line whose top-level struct {@code r} is on (after {@code next()} returned STRUCT). */
    static ExportLine line(IonReader r) {
        var parts = new LinkedHashMap<String, Map<String, AttributeValue>>();
        r.stepIn();
        while (r.next() != null) {
            String field = r.getFieldName();
            if (r.getType() != IonType.STRUCT || r.isNullValue()) {
                throw new IllegalArgumentException(field + " is " + r.getType() + ", not a struct");
            }
            parts.put(field, item(r));
        }
        r.stepOut();
        return ExportLine.of(parts);
    }

    private static Map<String, AttributeValue> item(IonReader r) {
        var item = new LinkedHashMap<String, AttributeValue>();
        r.stepIn();
        while (r.next() != null) {
            item.put(r.getFieldName(), value(r));
        }
        r.stepOut();
        return item;
    }

    static AttributeValue value(IonReader r) {
        IonType type = r.getType();
        if (r.isNullValue()) {
            return AttributeValue.fromNul(true);
        }
        return switch (type) {
            case STRING, SYMBOL -> AttributeValue.fromS(r.stringValue());
            case DECIMAL, INT, FLOAT -> AttributeValue.fromN(number(r));
            case BLOB, CLOB -> AttributeValue.fromB(SdkBytes.fromByteArray(r.newBytes()));
            case BOOL -> AttributeValue.fromBool(r.booleanValue());
            case STRUCT -> AttributeValue.fromM(item(r));
            case LIST -> list(r);
            default -> throw new IllegalArgumentException("an ION " + type + " is no DynamoDB value");
        };
    }

    private static AttributeValue list(IonReader r) {
        String[] annotations = r.getTypeAnnotations();
        String set = annotations.length == 0 ? null : annotations[0];
        var values = new ArrayList<AttributeValue>();
        r.stepIn();
        while (r.next() != null) {
            values.add(value(r));
        }
        r.stepOut();
        if (set == null) {
            return AttributeValue.fromL(values);
        }
        return switch (set) {
            case STRING_SET -> AttributeValue.fromSs(each(values, AttributeValue::s, set));
            case NUMBER_SET -> AttributeValue.fromNs(each(values, AttributeValue::n, set));
            case BINARY_SET -> AttributeValue.fromBs(each(values, AttributeValue::b, set));
            default -> AttributeValue.fromL(values);
        };
    }

    private static <T> List<T> each(List<AttributeValue> values, Function<AttributeValue, T> member, String set) {
        var result = new ArrayList<T>(values.size());
        for (AttributeValue v : values) {
            T m = member.apply(v);
            if (m == null) {
                throw new IllegalArgumentException("a " + set + " holds a value of another type");
            }
            result.add(m);
        }
        return result;
    }

    /** A number as DynamoDB writes it: plain digits, no exponent (an ION decimal may carry one, as in {@code 2d3}). */
    private static String number(IonReader r) {
        return switch (r.getType()) {
            case INT -> r.bigIntegerValue().toString();
            case FLOAT -> BigDecimal.valueOf(r.doubleValue()).toPlainString();
            default -> r.bigDecimalValue().toPlainString();
        };
    }
}
