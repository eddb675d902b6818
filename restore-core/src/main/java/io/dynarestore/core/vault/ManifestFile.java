package io.dynarestore.core.vault;

/**
 * One line of {@code manifest-files.json}: a data file, its item count, the base64 MD5 of the
 * object and its ETag. {@code dataFileS3Key} is a key in the export's bucket.
 */
public record ManifestFile(Long itemCount, String md5Checksum, String etag, String dataFileS3Key) {}
