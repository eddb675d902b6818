package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentCounts;
import io.dynarestore.contracts.status.Verification;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemDigest;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.planner.undo.ConsistentReads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The verification an item-writing restore ends with, from what each segment's writer reported
 * and from the destination itself. Per segment: the lines read equal its manifest's item count;
 * every line is accounted for (written, found equal, deleted or skipped); the checksum of what
 * was applied equals the checksum of what the lines ask for. Then the sampled keys are read back
 * (consistently) and must hold exactly the expected image, or be absent where the restore deleted
 * them. Base segments of a phased restore are not read back, since its changes are written over
 * them after. Each mismatch names its segment.
 */
final class Verifier {

    /** Keys read back at most, whatever the number of segments. */
    static final int MAX_READ_BACK = 500;

    private static final Backoff READS = new Backoff(20, Duration.ofMillis(50), Duration.ofSeconds(3));

    private Verifier() {}

    /** One sampled key to read back, with its segment. */
    private record Probe(int segment, Map<String, AttributeValue> key, String json, String digest) {}

    static Verification verify(
            RestorePlanned plan,
            Map<Integer, SegmentCounts> completed,
            Map<Integer, SegmentCompleted.Check> checks,
            DynamoDbClient dynamo,
            String table) {
        var mismatches = new ArrayList<String>();
        long lines = 0;
        long checksum = 0;
        int checked = 0;
        var probes = new ArrayList<Probe>();
        for (int segment = 0; segment < plan.segments(); segment++) {
            SegmentCompleted.Check check = checks.get(segment);
            SegmentCounts segmentCounts = completed.get(segment);
            if (check == null || segmentCounts == null) {
                mismatches.add("segment " + segment + ": its writer reported no check (an item-writer older than "
                        + "the verification wrote it); upgrade every item-writer and restore again");
                continue;
            }
            checked++;
            lines += check.lines();
            checksum += Long.parseUnsignedLong(check.appliedChecksum(), 16);
            if (check.lines() != check.expectedLines()) {
                mismatches.add("segment " + segment + ": " + check.lines() + " lines read, but its manifest says "
                        + check.expectedLines());
            }
            segmentMismatches(segment, check, segmentCounts.lines(), mismatches);
            boolean overwrittenLater = plan.phased() && segment < plan.baseSegments();
            if (!overwrittenLater && check.readBack() != null) {
                for (SegmentCompleted.KeyImage k : check.readBack()) {
                    if (probes.size() < MAX_READ_BACK) {
                        probes.add(new Probe(segment, DynamoJson.fromJson(k.key()), k.key(), k.digest()));
                    }
                }
            }
        }
        int matched = readBack(probes, dynamo, table, mismatches);
        String note = "Counts and checksums of " + checked + " segments compared with their manifests and source "
                + "images; " + probes.size() + " keys read back from " + table + ".";
        if (!mismatches.isEmpty() && matched < probes.size()) {
            note += " A key read back may also differ because an application wrote it during the restore.";
        }
        return new Verification(
                mismatches.isEmpty() ? Verification.Status.PASSED : Verification.Status.FAILED,
                checked,
                lines,
                ItemDigest.hex(checksum),
                probes.size(),
                matched,
                List.copyOf(mismatches),
                note);
    }

    /** What does not add up in one segment's counts and checksums. */
    private static void segmentMismatches(
            int segment, SegmentCompleted.Check check, SegmentCompleted.Counts counts, List<String> mismatches) {
        long accounted = counts.accounted();
        if (accounted != check.lines()) {
            String tally = counts.written() + " written, " + counts.unchanged() + " equal already, " + counts.deleted()
                    + " deleted, " + counts.skipped() + " skipped";
            mismatches.add("segment " + segment + ": "
                    + (accounted < check.lines()
                            ? (check.lines() - accounted) + " of its " + check.lines()
                                    + " lines are not accounted for (" + tally + ")"
                            : "its counts (" + tally + ") add up to more than its " + check.lines() + " lines"));
        }
        if (!check.sourceChecksum().equals(check.appliedChecksum())) {
            mismatches.add("segment " + segment + ": the checksum of the images applied (" + check.appliedChecksum()
                    + ") differs from that of its source images (" + check.sourceChecksum() + ")");
        }
    }

    /** Reads the probes back from the table; returns how many hold the image restored, and adds the others. */
    private static int readBack(List<Probe> probes, DynamoDbClient dynamo, String table, List<String> mismatches) {
        int matched = 0;
        // the writers encode keys in key-attribute order
        List<String> names =
                probes.isEmpty() ? List.of() : List.copyOf(probes.get(0).key().keySet());
        for (int from = 0; from < probes.size(); from += 100) {
            List<Probe> chunk = probes.subList(from, Math.min(probes.size(), from + 100));
            Map<KeyHash, Map<String, AttributeValue>> found = ConsistentReads.read(
                    dynamo, table, chunk.stream().map(Probe::key).toList(), names, READS);
            for (Probe p : chunk) {
                Map<String, AttributeValue> item = found.get(KeyHash.of(p.key(), names));
                String actual = item == null ? null : ItemDigest.hex(ItemDigest.of(item));
                if (Objects.equals(actual, p.digest())) {
                    matched++;
                } else if (p.digest() == null) {
                    mismatches.add("segment " + p.segment() + ": key " + p.json() + " was deleted but holds an item");
                } else if (actual == null) {
                    mismatches.add("segment " + p.segment() + ": key " + p.json() + " is missing from " + table);
                } else {
                    mismatches.add("segment " + p.segment() + ": key " + p.json() + " holds an item other than the "
                            + "one restored (digest " + actual + ", expected " + p.digest() + ")");
                }
            }
        }
        return matched;
    }
}
