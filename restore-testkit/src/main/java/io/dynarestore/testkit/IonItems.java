package io.dynarestore.testkit;

import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Writes DynamoDB items as AWS's ION exports hold them (Developer Guide, "Amazon S3 import formats":
 * S as a string, N as a decimal, B as a blob, BOOL, NULL as null, M as a struct, L as a list, and the
 * sets as lists annotated {@code $dynamodb_SS}, {@code $dynamodb_NS}, {@code $dynamodb_BS}).
 */
public final class IonItems {

    private IonItems() {}

    /** Writes one export line: {@code {Item: {...}}}, or a change's Metadata, Keys, OldImage and NewImage. */
    public static void writeLine(
            IonWriter w,
            Map<String, AttributeValue> item,
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage,
            Long writeTimestampMicros) {
        try {
            w.stepIn(IonType.STRUCT);
            if (item != null) {
                w.setFieldName("Item");
                writeItem(w, item);
            } else {
                w.setFieldName("Metadata");
                w.stepIn(IonType.STRUCT);
                w.setFieldName("WriteTimestampMicros");
                w.writeDecimal(BigDecimal.valueOf(writeTimestampMicros));
                w.stepOut();
                w.setFieldName("Keys");
                writeItem(w, keys);
                if (oldImage != null) {
                    w.setFieldName("OldImage");
                    writeItem(w, oldImage);
                }
                if (newImage != null) {
                    w.setFieldName("NewImage");
                    writeItem(w, newImage);
                }
            }
            w.stepOut();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void writeItem(IonWriter w, Map<String, AttributeValue> item) throws IOException {
        w.stepIn(IonType.STRUCT);
        for (var e : item.entrySet()) {
            w.setFieldName(e.getKey());
            writeValue(w, e.getValue());
        }
        w.stepOut();
    }

    private static void writeValue(IonWriter w, AttributeValue v) throws IOException {
        switch (v.type()) {
            case S -> w.writeString(v.s());
            case N -> w.writeDecimal(new BigDecimal(v.n()));
            case B -> w.writeBlob(v.b().asByteArray());
            case BOOL -> w.writeBool(v.bool());
            case NUL -> w.writeNull();
            case M -> writeItem(w, v.m());
            case L -> {
                w.stepIn(IonType.LIST);
                for (AttributeValue e : v.l()) {
                    writeValue(w, e);
                }
                w.stepOut();
            }
            case SS -> {
                w.setTypeAnnotations("$dynamodb_SS");
                w.stepIn(IonType.LIST);
                for (String s : v.ss()) {
                    w.writeString(s);
                }
                w.stepOut();
            }
            case NS -> {
                w.setTypeAnnotations("$dynamodb_NS");
                w.stepIn(IonType.LIST);
                for (String n : v.ns()) {
                    w.writeDecimal(new BigDecimal(n));
                }
                w.stepOut();
            }
            case BS -> {
                w.setTypeAnnotations("$dynamodb_BS");
                w.stepIn(IonType.LIST);
                for (SdkBytes b : v.bs()) {
                    w.writeBlob(b.asByteArray());
                }
                w.stepOut();
            }
            default -> throw new IllegalArgumentException("no ION form for " + v.type());
        }
    }
}
