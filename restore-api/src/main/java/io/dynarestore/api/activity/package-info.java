/**
 * A table's change timeline ({@code GET /tables/{t}/activity}): per step, the creates, overwrites,
 * deletes and write units its change log holds, each write counted once however many exports hold
 * it, and the runs of steps that stand out from the table's own recent pattern, each with the last
 * second before it as the restore point to consider. The counting ({@code ChangeCounts}) sees the
 * vault only through {@code ActivityVault} and the flags ({@code AnomalyDetector}) only the counts,
 * so that both are tested against brute force without S3.
 */
package io.dynarestore.api.activity;
