package io.dynarestore.exporter.files;

import io.dynarestore.core.threads.DaemonThreads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * An output stream into one S3 object by multipart upload. Memory is two parts whatever the
 * object's size ({@code partSize}, at least S3's 5 MB minimum): one part uploads on a thread of the
 * upload's own while the writer fills the other, so that writing never waits for S3 unless a whole
 * part is ready before the last one is sent. {@link #close()} completes the upload; {@link #abort()}
 * (or a failed part) drops it, so that no half object is ever visible. The object's SHA-256 is
 * computed on the sending thread, part by part in order, off the writer's.
 */
public final class S3Upload extends OutputStream {

    public static final int MIN_PART = 5 * 1024 * 1024;

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private final MessageDigest sha256 = sha256();
    private final ExecutorService sender = Executors.newSingleThreadExecutor(DaemonThreads.named("export-upload"));
    private byte[] filling;
    private byte[] spare;
    private int filled;
    private Future<CompletedPart> inFlight; // at most one part is sent while the next fills
    private int numbered;
    private long bytes;
    private boolean closed;

    /** What goes into an object written whole by {@link #whole}. */
    @FunctionalInterface
    interface Body {
        void writeTo(S3Upload upload) throws IOException;
    }

    /**
     * Writes one object through {@code body}: complete once the body returns, dropped (nothing of it
     * visible) when the body throws. Returns the completed upload, for its size and SHA-256.
     */
    static S3Upload whole(S3Client s3, String bucket, String key, String contentType, int partSize, Body body) {
        var upload = new S3Upload(s3, bucket, key, contentType, partSize);
        try {
            body.writeTo(upload);
        } catch (IOException e) {
            upload.abort();
            throw new UncheckedIOException(
                    "s3://" + bucket + "/" + key + " could not be written: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            upload.abort();
            throw e;
        }
        upload.close();
        return upload;
    }

    public S3Upload(S3Client s3, String bucket, String key, String contentType, int partSize) {
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.filling = new byte[Math.max(MIN_PART, partSize)];
        this.spare = new byte[filling.length];
        this.uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).contentType(contentType))
                .uploadId();
    }

    @Override
    public void write(int b) {
        bytes++;
        filling[filled++] = (byte) b;
        if (filled == filling.length) {
            send();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
        while (len > 0) {
            int n = Math.min(len, filling.length - filled);
            System.arraycopy(b, off, filling, filled, n);
            filled += n;
            off += n;
            len -= n;
            if (filled == filling.length) {
                send();
            }
        }
    }

    /** Sends the filled part once the one before it is in, and goes on filling the other buffer. */
    private void send() {
        awaitInFlight(); // the spare buffer is free again
        byte[] part = filling;
        int length = filled;
        int number = ++numbered;
        filling = spare;
        spare = part;
        filled = 0;
        inFlight = sender.submit(() -> {
            sha256.update(part, 0, length); // parts are sent one after another, in order
            String etag = s3.uploadPart(
                            b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                            RequestBody.fromContentProvider(
                                    () -> new ByteArrayInputStream(part, 0, length),
                                    length,
                                    "application/octet-stream"))
                    .eTag();
            return CompletedPart.builder().partNumber(number).eTag(etag).build();
        });
    }

    private void awaitInFlight() {
        if (inFlight == null) {
            return;
        }
        try {
            parts.add(inFlight.get());
            inFlight = null;
        } catch (ExecutionException e) {
            abort();
            throw e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException("a part of " + key + " could not be uploaded", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort();
            throw new IllegalStateException("interrupted while uploading " + key, e);
        }
    }

    /** Completes the upload: the object exists from now on. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (filled > 0 || numbered == 0) {
            send();
        }
        awaitInFlight();
        closed = true;
        sender.shutdown();
        s3.completeMultipartUpload(
                b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
    }

    /** How many bytes were written. */
    public long bytes() {
        return bytes;
    }

    /** The SHA-256 of every byte written, in hex; once closed. */
    public String sha256Hex() {
        if (!closed) {
            throw new IllegalStateException("the upload of " + key + " is not complete yet");
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Drops the upload and what was sent of it. */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        if (inFlight != null) {
            inFlight.cancel(true);
        }
        sender.shutdownNow();
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (RuntimeException ignored) {
            // the bucket's lifecycle rule for incomplete uploads removes it
        }
    }
}
