package io.dynarestore.testkit;

import com.amazon.ion.IonWriter;
import com.amazon.ion.system.IonTextWriterBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A native DynamoDB export written where a test says, laid out as AWS documents it
 * ({@code <prefix>/AWSDynamoDB/<exportId>/}: {@code _started}, {@code data/*.json.gz} or
 * {@code data/*.ion.gz}, {@code manifest-files.json}, {@code manifest-summary.json}, each manifest
 * with its checksum), in {@code DYNAMODB_JSON} or {@code ION}, so that the same items can be
 * exported in both formats as twins.
 */
public final class NativeExportFixture {

    /** One line of an export: an item (full), or a change (incremental). */
    public record Line(
            Map<String, AttributeValue> item,
            Map<String, AttributeValue> keys,
            Map<String, AttributeValue> oldImage,
            Map<String, AttributeValue> newImage,
            Long writeTimestampMicros) {

        public static Line item(Map<String, AttributeValue> item) {
            return new Line(item, null, null, null, null);
        }

        public static Line change(
                Map<String, AttributeValue> keys,
                Map<String, AttributeValue> oldImage,
                Map<String, AttributeValue> newImage,
                long micros) {
            return new Line(null, keys, oldImage, newImage, micros);
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private NativeExportFixture() {}

    /**
     * Writes a full export (when {@code from} is null, taken at {@code to}) or an incremental one over
     * ({@code from}, {@code to}], in {@code format}, in files of at most {@code perFile} lines; returns
     * the export's S3 URI ({@code s3://bucket/<prefix>/AWSDynamoDB/<exportId>/}).
     */
    public static String write(
            S3Client s3,
            String bucket,
            String prefix,
            String exportId,
            String tableArn,
            String format,
            Instant from,
            Instant to,
            List<Line> lines,
            int perFile) {
        boolean ion = "ION".equals(format);
        String root = prefix + "/AWSDynamoDB/" + exportId + "/";
        put(s3, bucket, root + "_started", new byte[0]);
        var manifest = new StringBuilder();
        long bytes = 0;
        for (int i = 0, n = 0; i < Math.max(1, lines.size()); i += perFile, n++) {
            var part = lines.subList(Math.min(i, lines.size()), Math.min(lines.size(), i + perFile));
            byte[] gz = ion ? ion(part) : json(part);
            String key = root + "data/" + exportId + "-" + n + (ion ? ".ion.gz" : ".json.gz");
            put(s3, bucket, key, gz);
            bytes += gz.length;
            ObjectNode entry = JSON.createObjectNode();
            entry.put("itemCount", part.size());
            entry.put("md5Checksum", Base64.getEncoder().encodeToString(md5(gz)));
            entry.put("etag", HexFormat.of().formatHex(md5(gz)));
            entry.put("dataFileS3Key", key);
            manifest.append(entry).append('\n');
        }
        byte[] files = manifest.toString().getBytes(StandardCharsets.UTF_8);
        put(s3, bucket, root + "manifest-files.json", files);
        put(s3, bucket, root + "manifest-files.checksum", hex(files));
        ObjectNode summary = JSON.createObjectNode();
        summary.put("version", from != null ? "2023-08-01" : "2020-06-30");
        summary.put("exportArn", tableArn + "/export/" + exportId);
        summary.put("startTime", to.toString());
        summary.put("endTime", to.plusSeconds(60).toString());
        summary.put("tableArn", tableArn);
        summary.put("tableId", "00000000-0000-0000-0000-000000000000");
        if (from != null) {
            summary.put("exportFromTime", from.toString());
            summary.put("exportToTime", to.toString());
            summary.put("outputView", "NEW_AND_OLD_IMAGES");
        } else {
            summary.put("exportTime", to.toString());
        }
        summary.put("s3Bucket", bucket);
        summary.put("s3Prefix", prefix);
        summary.put("s3SseAlgorithm", "AES256");
        summary.putNull("s3SseKmsKeyId");
        summary.put("manifestFilesS3Key", root + "manifest-files.json");
        summary.put("billedSizeBytes", bytes);
        summary.put("itemCount", lines.size());
        summary.put("outputFormat", format);
        summary.put("exportType", from != null ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
        byte[] summaryBytes = summary.toPrettyString().getBytes(StandardCharsets.UTF_8);
        put(s3, bucket, root + "manifest-summary.checksum", hex(summaryBytes));
        put(s3, bucket, root + "manifest-summary.json", summaryBytes);
        return "s3://" + bucket + "/" + root;
    }

    private static byte[] ion(List<Line> lines) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out);
                Writer text = new OutputStreamWriter(gz, StandardCharsets.UTF_8);
                IonWriter w = IonTextWriterBuilder.standard().build(text)) {
            for (Line l : lines) {
                IonItems.writeLine(w, l.item(), l.keys(), l.oldImage(), l.newImage(), l.writeTimestampMicros());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] json(List<Line> lines) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            for (Line l : lines) {
                ObjectNode line = JSON.createObjectNode();
                if (l.item() != null) {
                    line.set("Item", DynamoJsonText.of(l.item()));
                } else {
                    line.putObject("Metadata")
                            .putObject("WriteTimestampMicros")
                            .put("N", Long.toString(l.writeTimestampMicros()));
                    line.set("Keys", DynamoJsonText.of(l.keys()));
                    if (l.oldImage() != null) {
                        line.set("OldImage", DynamoJsonText.of(l.oldImage()));
                    }
                    if (l.newImage() != null) {
                        line.set("NewImage", DynamoJsonText.of(l.newImage()));
                    }
                }
                gz.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void put(S3Client s3, String bucket, String key, byte[] bytes) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }

    private static byte[] hex(byte[] bytes) {
        return HexFormat.of().formatHex(md5(bytes)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] md5(byte[] bytes) {
        try {
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
