package io.dynarestore.e2e;

import io.dynarestore.writer.segments.WriterFaults;

/**
 * One stack per test JVM for the end-to-end classes that need the same services, started by the
 * first of them and closed when the JVM exits: Kafka, dynalite and S3Proxy; restore-planner (files
 * capped at {@value #EXPORT_CAP} items, backtracks only from a change log that ended within
 * {@value #BACKTRACK_MAX_LAG}); an item-writer that drops one write of restore
 * {@value #CORRUPTED}'s segment 0 and nothing else; restore-api (exports registrable from the
 * {@value #EXPORT_BUCKET} bucket, no submission limit); the exporter. Several classes use it at
 * the same time: a class on it names its tables and restores apart from the others', stops only the
 * services it started itself, and reads the status topic by its own restore ids.
 */
final class SharedStack {

    /** The restore whose first segment loses one write (UndoableRestoresIT's corrupted restore). */
    static final String CORRUPTED = "corrupted-1";

    /** The most items a file restore holds here (GranularRecoveryIT exports past it). */
    static final int EXPORT_CAP = 2_000;

    /** The bucket native exports may be registered from (NativeExportsIT, IonExportsIT). */
    static final String EXPORT_BUCKET = "customer-exports";

    /**
     * How recent a change log must be for an in-place restore to backtrack: the histories of the
     * other classes end ten minutes ago or more, so they take the full path; BacktrackIT's end now.
     */
    static final String BACKTRACK_MAX_LAG = "5m";

    private static RestoreStack stack;

    private SharedStack() {}

    /** The bucket native exports may be registered from, made by whichever class needs it first. */
    static synchronized void exportBucket(RestoreStack stack) {
        var s3 = stack.s3.client();
        if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(EXPORT_BUCKET))) {
            s3.createBucket(b -> b.bucket(EXPORT_BUCKET));
        }
    }

    static synchronized RestoreStack get() {
        if (stack == null) {
            var started = RestoreStack.infrastructure();
            try {
                started.startPlanner(
                        "--planner.strategy.export-cap=" + EXPORT_CAP,
                        // exports of more than 2,500 items are split when several exporters run (GranularRecoveryIT)
                        "--planner.exports.split-above=2500",
                        "--planner.pitr.backtrack-max-lag=" + BACKTRACK_MAX_LAG,
                        // the histories' change logs are written by the tests, not by a capture that flushes on request
                        "--planner.pitr.tail-wait=0s");
                // the writer's faults: one lost write in the CORRUPTED restore, and racing application writes
                started.startWriter(WriterFaults.installed(CORRUPTED, 0));
                started.startApi(
                        "--api.exports.allowed-locations=" + EXPORT_BUCKET,
                        // every class on the stack submits as the same caller, several classes at once;
                        // the submission limit is AuthorizationIT's to test, on a stack of its own
                        "--api.limits.submissions-per-minute=100000",
                        "--api.limits.submission-burst=10000");
                started.startExporter();
            } catch (RuntimeException e) {
                started.close();
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-stack-close"));
            stack = started;
        }
        return stack;
    }
}
