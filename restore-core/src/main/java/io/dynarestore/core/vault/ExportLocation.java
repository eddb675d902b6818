package io.dynarestore.core.vault;

/**
 * Where a DynamoDB export lies in S3, for exports registered in place: the bucket and the
 * export's root, the prefix that holds its {@code manifest-summary.json} (for native exports,
 * {@code <prefix>/AWSDynamoDB/<ExportId>/}).
 */
public record ExportLocation(String bucket, String prefix) {

    public ExportLocation {
        prefix = prefix == null || prefix.isEmpty() || prefix.endsWith("/")
                ? (prefix == null ? "" : prefix)
                : prefix + "/";
    }

    /** Parses {@code s3://bucket/prefix/}. */
    public static ExportLocation parse(String s3Uri) {
        if (s3Uri == null || !s3Uri.startsWith("s3://")) {
            throw new IllegalArgumentException("expected an s3://bucket/prefix/ location, got " + s3Uri);
        }
        String rest = s3Uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("the location " + s3Uri + " names no prefix; give the export's folder, "
                    + "such as s3://bucket/prefix/AWSDynamoDB/<ExportId>/");
        }
        return new ExportLocation(rest.substring(0, slash), rest.substring(slash + 1));
    }

    /**
     * The key of a file a manifest names. Native manifests name keys from the bucket's root or
     * from the export prefix depending on their age; both end with {@code AWSDynamoDB/<id>/...},
     * which is joined to this location's part before {@code AWSDynamoDB/}.
     */
    public String resolve(String manifestKey) {
        int marker = manifestKey.indexOf("AWSDynamoDB/");
        int own = prefix.indexOf("AWSDynamoDB/");
        if (marker >= 0 && own >= 0) {
            return prefix.substring(0, own) + manifestKey.substring(marker);
        }
        return manifestKey.startsWith(prefix) ? manifestKey : prefix + manifestKey;
    }

    public String uri() {
        return "s3://" + bucket + "/" + prefix;
    }
}
