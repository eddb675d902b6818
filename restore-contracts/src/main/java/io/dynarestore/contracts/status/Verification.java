package io.dynarestore.contracts.status;

import java.util.List;

/**
 * The check a restore ends with. For item writes: every segment's lines equal its manifest's
 * item count and are each accounted for (written, found equal, deleted or skipped); the
 * checksum of what was applied equals the checksum of the source images; and a sample of keys
 * read back from the destination holds exactly the expected images. {@code mismatches} names
 * each failed check with its segment; a restore with any fails.
 *
 * @param status          PASSED, FAILED, or SKIPPED when there is nothing this system can check
 * @param segmentsChecked segments whose counts and checksums were compared
 * @param linesChecked    source lines accounted for
 * @param checksum        the sum of the segments' checksums (hex), to compare two restores of one source
 * @param readBack        keys read back from the destination
 * @param readBackMatched of those, keys that held the expected image (or were absent, for deletes)
 * @param mismatches      one line per failed check, naming its segment
 * @param note            how the check was made, or why it was skipped
 */
public record Verification(
        Status status,
        int segmentsChecked,
        long linesChecked,
        String checksum,
        int readBack,
        int readBackMatched,
        List<String> mismatches,
        String note) {

    public enum Status {
        PASSED,
        FAILED,
        SKIPPED
    }

    public static Verification skipped(String note) {
        return new Verification(Status.SKIPPED, 0, 0, null, 0, 0, List.of(), note);
    }

    public boolean failed() {
        return status == Status.FAILED;
    }
}
