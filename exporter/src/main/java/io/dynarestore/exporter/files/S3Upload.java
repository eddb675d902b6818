package io.dynarestore.exporter.files;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * An output stream into one S3 object by multipart upload: it holds one part in memory at a time
 * ({@code partSize}, at least S3's 5 MB minimum), so an object of any size is written with flat
 * memory. {@link #close()} completes the upload; {@link #abort()} (or a failed part) drops it, so
 * that no half object is ever visible.
 */
public final class S3Upload extends OutputStream {

    public static final int MIN_PART = 5 * 1024 * 1024;

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final int partSize;
    private final String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private ByteArrayOutputStream buffer;
    private boolean closed;

    public S3Upload(S3Client s3, String bucket, String key, String contentType, int partSize) {
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.partSize = Math.max(MIN_PART, partSize);
        this.buffer = new ByteArrayOutputStream(this.partSize);
        this.uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).contentType(contentType))
                .uploadId();
    }

    @Override
    public void write(int b) {
        buffer.write(b);
        if (buffer.size() >= partSize) {
            upload();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            int n = Math.min(len, partSize - buffer.size());
            buffer.write(b, off, n);
            off += n;
            len -= n;
            if (buffer.size() >= partSize) {
                upload();
            }
        }
    }

    private void upload() {
        int number = parts.size() + 1;
        byte[] bytes = buffer.toByteArray();
        buffer = new ByteArrayOutputStream(partSize);
        try {
            String etag = s3.uploadPart(
                            b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                            RequestBody.fromBytes(bytes))
                    .eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    /** Completes the upload: the object exists from now on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (buffer.size() > 0 || parts.isEmpty()) {
            upload();
        }
        closed = true;
        s3.completeMultipartUpload(
                b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
    }

    /** Drops the upload and what was sent of it. */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (RuntimeException ignored) {
            // the bucket's lifecycle rule for incomplete uploads removes it
        }
    }
}
