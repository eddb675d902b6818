package io.dynarestore.core.vault;

import java.time.Instant;

/** {@code snaps/<snapId>.json}: an AWS-native backup of a table (a Snap), by its ARN. */
public record SnapMetadata(String snapId, String backupArn, Instant takenAt, Instant expiresAt) {
}
