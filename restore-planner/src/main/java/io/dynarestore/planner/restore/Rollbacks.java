package io.dynarestore.planner.restore;

import static io.dynarestore.planner.restore.RestoreSteps.publish;

import io.dynarestore.contracts.status.RollbackCompleted;
import io.dynarestore.contracts.status.RollbackFailed;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.undo.UndoJournal;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.PlannerProperties;
import io.dynarestore.planner.restore.RestoreSteps.Outcome;
import io.dynarestore.planner.restore.RestoreSteps.Snapshot;
import io.dynarestore.planner.undo.Rollback;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls a restore back from its undo journal, within the rollback's write budget; idempotent, so
 * a rollback taken again after a crash or a failure finishes what the last one began.
 */
record Rollbacks(
        VaultCatalog catalog, AwsClients aws, EventPublisher publisher, PlannerProperties.Rollback rollbackSettings) {

    private static final Logger log = LoggerFactory.getLogger(Rollbacks.class);

    /**
     * Puts the destination back as it was before the restore, from its undo journal (see
     * {@link Rollback}). Idempotent: a rollback taken again after a crash
     * finds the keys it put back already as they were.
     */
    Outcome rollback(Snapshot view) {
        TableRef t = view.plan() == null ? null : view.plan().destination();
        long started = System.nanoTime();
        if (t == null) {
            // it ended before it was planned: no segment went out, so nothing was written or journaled
            return Outcome.of(publish(publisher, RollbackCompleted.of(view.restoreId(), null, 0, 0, 0, 0, 0)));
        }
        try {
            var dynamo = aws.dynamo(t.account(), t.region());
            var keys = KeySchema.attributeNames(dynamo.describeTable(b -> b.tableName(t.tableName()))
                    .table()
                    .keySchema());
            var result = new Rollback(
                            aws.s3(),
                            dynamo,
                            t.tableName(),
                            keys,
                            rollbackSettings.writeUnitsPerSecond(),
                            new Backoff(10, Duration.ofMillis(100), Duration.ofSeconds(10)))
                    .run(catalog.layout().bucket(), UndoJournal.prefix(view.restoreId()));
            log.info(
                    "restore {} rolled back: {} items put back, {} deleted, {} unchanged, from {} journal entries",
                    view.restoreId(),
                    result.restored(),
                    result.deleted(),
                    result.unchanged(),
                    result.entries());
            return Outcome.of(publish(
                    publisher,
                    RollbackCompleted.of(
                            view.restoreId(),
                            t,
                            result.restored(),
                            result.deleted(),
                            result.unchanged(),
                            result.entries(),
                            (System.nanoTime() - started) / 1_000_000)));
        } catch (RuntimeException e) {
            log.warn("restore {}: rollback failed", view.restoreId(), e);
            return Outcome.of(publish(
                    publisher,
                    RollbackFailed.of(
                            view.restoreId(),
                            "The rollback of " + t.tableName() + " stopped: "
                                    + e.getMessage()
                                    + ". Keys put back so far stay put back; ask for the rollback again to finish "
                                    + "it (it is idempotent).")));
        }
    }
}
