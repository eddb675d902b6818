package io.dynarestore.planner.restore;

import io.dynarestore.contracts.commands.CancelRequested;
import io.dynarestore.contracts.commands.RestoreCommand;
import io.dynarestore.contracts.commands.RollbackRequested;
import io.dynarestore.contracts.status.CancellationStarted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RollbackStarted;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.request.CommandReader;
import io.dynarestore.core.restore.RollbackPolicy;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands on restore.commands for the restores this planner owns: a cancel of a running
 * restore becomes {@code CancellationStarted}, a rollback that {@link RollbackPolicy} allows and
 * the publisher may ask for becomes {@code RollbackStarted}; either is then driven. Any other
 * command changes nothing; a message that is not a command, or a forbidden rollback, goes to the DLT.
 */
record RestoreCommands(
        OwnedRestores owned, RequestIntake intake, EventPublisher publisher, Consumer<TrackedRestore> drive) {

    private static final Logger log = LoggerFactory.getLogger(RestoreCommands.class);

    /**
     * A cancel of a restore this planner owns and that has not ended becomes {@code CancellationStarted};
     * any other (unknown or ended restore, second cancel) changes nothing. A message that is not a
     * command goes to the DLT.
     */
    void handle(ConsumerRecord<String, byte[]> record) {
        var read = CommandReader.read(record.value());
        if (!(read instanceof CommandReader.Valid valid)) {
            log.warn(
                    "{}-{}@{}: not a valid command; sent to the DLT",
                    record.topic(),
                    record.partition(),
                    record.offset());
            DeadLetters.send(
                    publisher,
                    record,
                    "INVALID_COMMAND",
                    "not a valid RestoreCommand: " + ((CommandReader.Invalid) read).reason(),
                    null);
            return;
        }
        RestoreCommand command = valid.command();
        if (command instanceof CancelRequested cancel) {
            TrackedRestore restore =
                    cancel.restoreId() == null ? null : owned.get(record.partition(), cancel.restoreId());
            if (restore == null
                    || restore.view.state() == null
                    || restore.view.state().terminal()
                    || restore.view.cancellation() != null) {
                log.info(
                        "cancel of restore {} changes nothing (unknown here, ended, or cancelled already)",
                        cancel.restoreId());
                return;
            }
            start(
                    restore,
                    CancellationStarted.of(cancel.restoreId(), cancel.requestedBy(), cancel.reason()),
                    "cancelled");
        } else if (command instanceof RollbackRequested rollback) {
            onRollback(record, rollback);
        }
    }

    /**
     * A rollback of an ended restore into an existing table or in place, by a publisher that
     * holds the roles the restore needed, becomes {@code RollbackStarted}; any other changes
     * nothing (a refused one goes to the DLT, so that its publisher can learn why).
     */
    private void onRollback(ConsumerRecord<String, byte[]> record, RollbackRequested rollback) {
        TrackedRestore restore =
                rollback.restoreId() == null ? null : owned.get(record.partition(), rollback.restoreId());
        String why = restore == null ? null : RollbackPolicy.refusal(restore.view);
        if (restore == null || why != null) {
            log.info(
                    "rollback of restore {} changes nothing: {}",
                    rollback.restoreId(),
                    why == null ? "unknown here" : why);
            return;
        }
        String forbidden = intake.refusal(record, restore.view.request());
        if (forbidden != null) {
            log.warn("rollback of restore {} refused: {}", rollback.restoreId(), forbidden);
            DeadLetters.send(publisher, record, "FORBIDDEN", "Rolling back: " + forbidden, null);
            return;
        }
        start(
                restore,
                RollbackStarted.of(rollback.restoreId(), rollback.requestedBy(), rollback.reason()),
                "rolled back");
    }

    /** Publishes the command's start, folds it into the restore here at once and drives the restore on. */
    private void start(TrackedRestore restore, RestoreEvent started, String what) {
        publisher.status(started);
        restore.applyLocal(started);
        log.info("restore {} is being {}", started.restoreId(), what);
        drive.accept(restore);
    }
}
