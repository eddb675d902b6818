package io.dynarestore.core.vault;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.core.JsonGenerator;

/**
 * Writes a full backup in DynamoDB's FULL_EXPORT layout. Items go through {@link Part}s (one per
 * writing thread), each cutting a new gzip data file every {@code itemsPerFile} items, staged on
 * local disk and then uploaded, so memory stays flat whatever the backup's size.
 * {@link #finish} writes the manifests and, last, {@code backup.json}.
 */
public final class BackupWriter {

    private final S3Client s3;
    private final VaultLayout layout;
    private final String account;
    private final String region;
    private final String table;
    private final String backupId;
    private final int itemsPerFile;
    private final String prefix;
    private final Instant startedAt = Instant.now();
    private final List<ManifestFile> files = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong items = new AtomicLong();
    private final AtomicLong itemBytes = new AtomicLong();
    private final AtomicLong writeUnits = new AtomicLong();

    public BackupWriter(S3Client s3, VaultLayout layout, String account, String region, String table, String backupId,
                        int itemsPerFile) {
        if (itemsPerFile < 1) {
            throw new IllegalArgumentException("itemsPerFile must be at least 1");
        }
        this.s3 = s3;
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.backupId = backupId;
        this.itemsPerFile = itemsPerFile;
        this.prefix = layout.backupPrefix(account, region, table, backupId);
    }

    /** A writer of data files for one thread. Close it to upload its last file. */
    public Part openPart() {
        return new Part();
    }

    public long itemCount() {
        return items.get();
    }

    /**
     * Writes the manifests and {@code backup.json}; the backup exists from then on. Data files
     * are listed in the order of their keys, so that segment numbers are stable.
     */
    public Backup finish(TableDescription description, List<Tag> tags, TimeToLiveDescription ttl, Instant takenAt,
                         Instant expiresAt) {
        List<ManifestFile> sorted;
        synchronized (files) {
            sorted = new ArrayList<>(files);
        }
        sorted.sort(java.util.Comparator.comparing(ManifestFile::dataFileS3Key));
        var lines = new StringBuilder();
        for (ManifestFile f : sorted) {
            lines.append(Json.toString(f)).append('\n');
        }
        String manifestFilesKey = prefix + VaultLayout.MANIFEST_FILES;
        put(manifestFilesKey, lines.toString().getBytes(StandardCharsets.UTF_8), "application/json");

        String tableArn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table;
        var summary = new ManifestSummary("2020-06-30", tableArn + "/export/" + backupId,
                startedAt.toString(), Instant.now().toString(), tableArn, description.tableId(), takenAt.toString(),
                null, null, layout.bucket(), prefix, "AES256", null, manifestFilesKey, itemBytes.get(), items.get(),
                ManifestSummary.DYNAMODB_JSON, null, ManifestSummary.FULL_EXPORT);
        put(prefix + VaultLayout.MANIFEST_SUMMARY, Json.toBytes(summary), "application/json");

        var metadata = BackupMetadata.of(backupId, takenAt, expiresAt, account, region, description, tags, ttl,
                writeUnits.get());
        put(prefix + VaultLayout.BACKUP_JSON, Json.toBytes(metadata), "application/json");
        return new Backup(layout, metadata, summary, sorted);
    }

    private String put(String key, byte[] body, String contentType) {
        return s3.putObject(b -> b.bucket(layout.bucket()).key(key).contentType(contentType),
                RequestBody.fromBytes(body)).eTag();
    }

    /** Writes data files for one thread; not thread-safe. */
    public final class Part implements AutoCloseable {
        private Path file;
        private OutputStream out;
        private MessageDigest md5;
        private JsonGenerator generator;
        private long inFile;

        public void write(Map<String, AttributeValue> item) {
            try {
                if (generator == null) {
                    open();
                }
                generator.writeStartObject();
                generator.writeName("Item");
                DynamoJson.writeItem(generator, item);
                generator.writeEndObject();
                generator.writeRaw('\n');
                inFile++;
                items.incrementAndGet();
                long size = ItemSize.of(item);
                itemBytes.addAndGet(size);
                writeUnits.addAndGet(ItemSize.wcu(size));
                if (inFile >= itemsPerFile) {
                    cut();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void open() throws IOException {
            file = Files.createTempFile("vault-part-", ".json.gz");
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            out = new GZIPOutputStream(new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(file),
                    1 << 16), md5), 1 << 16);
            generator = DynamoJson.generator(out);
            inFile = 0;
        }

        private void cut() throws IOException {
            generator.close();
            out.close();
            String key = prefix + "data/" + UUID.randomUUID().toString().replace("-", "") + ".json.gz";
            String etag = s3.putObject(b -> b.bucket(layout.bucket()).key(key).contentType("application/gzip"),
                    RequestBody.fromFile(file)).eTag();
            files.add(new ManifestFile(inFile, Base64.getEncoder().encodeToString(md5.digest()),
                    etag == null ? null : etag.replace("\"", ""), key));
            Files.deleteIfExists(file);
            generator = null;
            out = null;
            file = null;
        }

        @Override
        public void close() {
            try {
                if (generator != null) {
                    cut();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
