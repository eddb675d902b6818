package io.dynarestore.contracts.protection;

/** Why the protector could not act on a message of one of its input topics. */
public enum ProtectionRejectionCode {
    /** A record of {@code restore.protection} that is not a readable policy, or one that breaks its rule. */
    INVALID_POLICY,
    /** A record of {@code restore.protection.scans} that is not a segment the protector can scan. */
    INVALID_SCAN_SEGMENT
}
