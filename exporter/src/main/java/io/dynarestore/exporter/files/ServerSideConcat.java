package io.dynarestore.exporter.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * One object made in S3 from others, in order, by a multipart upload whose parts are copies of
 * them ({@code UploadPartCopy}): S3 moves the bytes, and the exporter only reads them once to hash
 * the whole. S3 takes it only where every object but the last holds at least 5 MiB and none more
 * than 5 GiB ({@link #fits}); elsewhere the caller streams them.
 */
final class ServerSideConcat {

    /** The largest part S3 copies in one request. */
    static final long MAX_PART = 5L << 30;

    /** What was made: its size and SHA-256. */
    record Made(long bytes, String sha256) {}

    private ServerSideConcat() {}

    /** Whether objects of these sizes, in this order, can be the parts of one multipart upload. */
    static boolean fits(List<Long> sizes) {
        if (sizes.isEmpty()) {
            return false;
        }
        for (int i = 0; i < sizes.size(); i++) {
            long size = sizes.get(i);
            boolean last = i == sizes.size() - 1;
            if (size > MAX_PART || (!last && size < S3Upload.MIN_PART)) {
                return false;
            }
        }
        return true;
    }

    /** Makes {@code key} of {@code sources} in order; nothing is left of it when this fails. */
    static Made concat(S3Client s3, String bucket, String key, String contentType, List<String> sources) {
        String uploadId = s3.createMultipartUpload(
                        b -> b.bucket(bucket).key(key).contentType(contentType))
                .uploadId();
        try {
            var parts = new ArrayList<CompletedPart>();
            for (int i = 0; i < sources.size(); i++) {
                int number = i + 1;
                String source = sources.get(i);
                String etag = s3.uploadPartCopy(b -> b.sourceBucket(bucket)
                                .sourceKey(source)
                                .destinationBucket(bucket)
                                .destinationKey(key)
                                .uploadId(uploadId)
                                .partNumber(number))
                        .copyPartResult()
                        .eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            var sha = MessageDigest.getInstance("SHA-256");
            long bytes = 0;
            byte[] buffer = new byte[1 << 16];
            for (String source : sources) {
                try (var in = s3.getObject(b -> b.bucket(bucket).key(source))) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        sha.update(buffer, 0, n);
                        bytes += n;
                    }
                }
            }
            s3.completeMultipartUpload(
                    b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
            return new Made(bytes, HexFormat.of().formatHex(sha.digest()));
        } catch (IOException e) {
            abort(s3, bucket, key, uploadId);
            throw new UncheckedIOException("a staged part of the export could not be read", e);
        } catch (NoSuchAlgorithmException e) {
            abort(s3, bucket, key, uploadId);
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        } catch (RuntimeException e) {
            abort(s3, bucket, key, uploadId);
            throw e;
        }
    }

    private static void abort(S3Client s3, String bucket, String key, String uploadId) {
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (RuntimeException ignored) {
            // the bucket's lifecycle rule for incomplete uploads takes what is left
        }
    }
}
