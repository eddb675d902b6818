package io.dynarestore.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The files of one export as DynamoDB writes them (Developer Guide, "DynamoDB table export output
 * format"): {@code <S3Prefix>/AWSDynamoDB/<ExportId>/_started} first, gzipped JSON-lines data files
 * of at most {@value #ITEMS_PER_FILE} lines under {@code data/}, {@code manifest-files.json} (one
 * line per data file: itemCount, md5Checksum, etag, dataFileS3Key) and, last, the
 * {@code manifest-summary.json} that says the export is whole, each manifest with its checksum file.
 */
final class ExportFiles {

    static final int ITEMS_PER_FILE = 1_000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final S3Client s3;
    private final Clock clock;

    ExportFiles(S3Client s3, Clock clock) {
        this.s3 = s3;
        this.clock = clock;
    }

    /** Writes {@code lines} as the export {@code d} describes, and adds the manifest's key and the counts to it. */
    void write(ObjectNode d, List<ObjectNode> lines) {
        String bucket = d.path("S3Bucket").asString();
        String prefix = d.has("S3Prefix") ? d.path("S3Prefix").asString().replaceAll("/+$", "") + "/" : "";
        String id = d.path("ExportArn")
                .asString()
                .substring(d.path("ExportArn").asString().lastIndexOf('/') + 1);
        String root = prefix + "AWSDynamoDB/" + id + "/";
        put(bucket, root + "_started", new byte[0]);
        var manifest = new StringBuilder();
        long bytes = 0;
        for (int i = 0; i < Math.max(1, lines.size()); i += ITEMS_PER_FILE) {
            var part = lines.subList(Math.min(i, lines.size()), Math.min(lines.size(), i + ITEMS_PER_FILE));
            byte[] gz = gzip(part);
            String key = root + "data/" + randomName() + ".json.gz";
            put(bucket, key, gz);
            bytes += gz.length;
            ObjectNode entry = JSON.createObjectNode();
            entry.put("itemCount", part.size());
            entry.put("md5Checksum", Base64.getEncoder().encodeToString(md5(gz)));
            entry.put("etag", HexFormat.of().formatHex(md5(gz)));
            entry.put("dataFileS3Key", key);
            manifest.append(entry).append('\n');
        }
        byte[] files = manifest.toString().getBytes(StandardCharsets.UTF_8);
        put(bucket, root + "manifest-files.json", files);
        put(
                bucket,
                root + "manifest-files.checksum",
                HexFormat.of().formatHex(md5(files)).getBytes(StandardCharsets.UTF_8));
        boolean incremental = "INCREMENTAL_EXPORT".equals(d.path("ExportType").asString());
        ObjectNode summary = JSON.createObjectNode();
        summary.put("version", incremental ? "2023-08-01" : "2020-06-30");
        summary.put("exportArn", d.path("ExportArn").asString());
        summary.put(
                "startTime",
                Instant.ofEpochMilli((long) (d.path("StartTime").asDouble() * 1000))
                        .toString());
        summary.put("endTime", clock.instant().toString());
        summary.put("tableArn", d.path("TableArn").asString());
        summary.put("tableId", d.path("TableId").asString());
        if (incremental) {
            JsonNode spec = d.path("IncrementalExportSpecification");
            summary.put(
                    "exportFromTime",
                    ExportsApi.time(spec.path("ExportFromTime")).toString());
            summary.put(
                    "exportToTime", ExportsApi.time(spec.path("ExportToTime")).toString());
        } else {
            summary.put("exportTime", ExportsApi.time(d.path("ExportTime")).toString());
        }
        summary.put("s3Bucket", bucket);
        summary.put("s3Prefix", prefix.isEmpty() ? null : prefix.substring(0, prefix.length() - 1));
        summary.put("s3SseAlgorithm", d.path("S3SseAlgorithm").asString());
        summary.putNull("s3SseKmsKeyId");
        summary.put("manifestFilesS3Key", root + "manifest-files.json");
        summary.put("billedSizeBytes", bytes);
        summary.put("itemCount", lines.size());
        summary.put("outputFormat", d.path("ExportFormat").asString());
        if (incremental) {
            summary.put(
                    "outputView",
                    d.path("IncrementalExportSpecification")
                            .path("ExportViewType")
                            .asString());
        }
        summary.put("exportType", d.path("ExportType").asString());
        byte[] summaryBytes = summary.toPrettyString().getBytes(StandardCharsets.UTF_8);
        put(
                bucket,
                root + "manifest-summary.checksum",
                HexFormat.of().formatHex(md5(summaryBytes)).getBytes(StandardCharsets.UTF_8));
        put(bucket, root + "manifest-summary.json", summaryBytes);
        d.put("ExportManifest", root + "manifest-summary.json");
        d.put("ItemCount", lines.size());
        d.put("BilledSizeBytes", bytes);
    }

    private void put(String bucket, String key, byte[] bytes) {
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    }

    private static byte[] gzip(List<ObjectNode> lines) {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            for (ObjectNode line : lines) {
                gz.write(JSON.writeValueAsBytes(line));
                gz.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] md5(byte[] bytes) {
        try {
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String randomName() {
        String letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        var name = new StringBuilder();
        for (int i = 0; i < 26; i++) {
            name.append(letters.charAt(ThreadLocalRandom.current().nextInt(letters.length())));
        }
        return name.toString();
    }
}
