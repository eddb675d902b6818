package io.dynarestore.core.vault;

/**
 * {@code manifest-summary.json} of a DynamoDB export, with AWS's field names. Full exports leave
 * the incremental fields ({@code exportFromTime}, {@code exportToTime}, {@code outputView})
 * empty. Times are ISO-8601 strings, as AWS writes them.
 */
public record ManifestSummary(
        String version,
        String exportArn,
        String startTime,
        String endTime,
        String tableArn,
        String tableId,
        String exportTime,
        String exportFromTime,
        String exportToTime,
        String s3Bucket,
        String s3Prefix,
        String s3SseAlgorithm,
        String s3SseKmsKeyId,
        String manifestFilesS3Key,
        Long billedSizeBytes,
        Long itemCount,
        String outputFormat,
        String outputView,
        String exportType) {

    public static final String FULL_EXPORT = "FULL_EXPORT";
    public static final String INCREMENTAL_EXPORT = "INCREMENTAL_EXPORT";
    public static final String DYNAMODB_JSON = "DYNAMODB_JSON";
    /** Amazon Ion text, data files {@code *.ion.gz}: read by {@link DataFileReader} like DYNAMODB_JSON ones. */
    public static final String ION = "ION";
}
