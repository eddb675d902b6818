package io.dynarestore.core.vault;

/**
 * Where the vault is: a bucket and an optional root prefix inside it.
 *
 * @param bucket the S3 bucket that holds backups
 * @param root   a prefix under which the layout starts, or empty
 */
public record VaultSettings(String bucket, String root) {

    public VaultLayout layout() {
        return new VaultLayout(bucket, root);
    }
}
