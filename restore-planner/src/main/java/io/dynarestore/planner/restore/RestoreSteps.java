package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.DestinationReady;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreFailed;
import io.dynarestore.contracts.status.RestorePlanned;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.contracts.status.SegmentsDispatched;
import io.dynarestore.contracts.status.SourceRef;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.table.TableSpecs;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.ManifestSummary;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.planner.destination.TableCreator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.RecordMetadata;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The steps of a restore, each a function of its folded view that publishes the event(s) that
 * move it on. Each step is safe to run again after a crash: planning is pure, table creation is
 * idempotent by tag, segments dispatched twice are written twice (puts are idempotent) and
 * counted once.
 */
final class RestoreSteps {

    enum Step { PLAN, PREPARE_DESTINATION, DISPATCH, COMPLETE, FAIL }

    private final VaultCatalog catalog;
    private final TableCreator tables;
    private final EventPublisher publisher;
    private final Clock clock;

    RestoreSteps(VaultCatalog catalog, TableCreator tables, EventPublisher publisher, Clock clock) {
        this.catalog = catalog;
        this.tables = tables;
        this.publisher = publisher;
        this.clock = clock;
    }

    /** The step a restore in this state needs next, or {@code null} when it waits for others. */
    static Step next(RestoreView view) {
        if (view.state() == null || view.state().terminal() || view.request() == null) {
            return null;
        }
        switch (view.state()) {
            case ACCEPTED:
                return Step.PLAN;
            case PLANNED:
                return Step.PREPARE_DESTINATION;
            case RUNNING:
                if (!view.dispatched()) {
                    return Step.DISPATCH;
                }
                if (!view.failedSegments().isEmpty()) {
                    return Step.FAIL;
                }
                return view.completedSegments().size() >= view.plan().segments() ? Step.COMPLETE : null;
            default:
                return null;
        }
    }

    /**
     * What a step may read of a restore: taken on the loop thread, so that steps on other threads
     * never see the view change under them.
     */
    record Snapshot(String restoreId, RestoreRequested request, RestorePlanned plan, long itemsWritten,
                    long bytesWritten, java.time.Instant createdAt, java.util.Map<Integer, String> failedSegments) {
        static Snapshot of(RestoreView view) {
            return new Snapshot(view.restoreId(), view.request(), view.plan(), view.itemsWritten(),
                    view.bytesWritten(), view.createdAt(), new java.util.TreeMap<>(view.failedSegments()));
        }
    }

    /** Runs a step and returns the events it published. */
    List<RestoreEvent> run(Step step, Snapshot view) {
        RestoreRequested request = view.request();
        return switch (step) {
            case PLAN -> List.of(publish(plan(request)));
            case PREPARE_DESTINATION -> List.of(publish(prepare(request)));
            case DISPATCH -> List.of(publish(dispatch(request, view.plan())));
            case COMPLETE -> List.of(publish(RestoreCompleted.of(view.restoreId(), view.plan().destination(),
                    view.itemsWritten(), view.bytesWritten(), view.plan().segments(),
                    Duration.between(view.createdAt(), clock.instant()).toMillis())));
            case FAIL -> {
                var failed = view.failedSegments().entrySet().iterator().next();
                yield List.of(publish(RestoreFailed.of(view.restoreId(), "Segment " + failed.getKey() + " of "
                        + view.plan().segments() + " could not be written: " + failed.getValue()
                        + ". Items already written stay in " + view.plan().destination().tableName() + ".",
                        view.itemsWritten())));
            }
        };
    }

    private RestoreEvent publish(RestoreEvent event) {
        publisher.status(event);
        return event;
    }

    private Backup backup(RestoreRequested request) {
        var s = request.source();
        return catalog.findBackup(s.account(), s.region(), s.table(), s.backupId()).orElseThrow(() ->
                new StepException("Backup " + s.backupId() + " of table " + s.table()
                        + " is no longer in the vault (deleted after the restore was accepted)."));
    }

    RestorePlanned plan(RestoreRequested request) {
        Backup backup = backup(request);
        var destination = (Destination.NewTable) request.destination();
        TableDescription table = backup.metadata().tableDescription();
        var options = destination.options();
        int lsis = table.hasLocalSecondaryIndexes() && (options == null || options.includeLocalSecondaryIndexes() == null
                || options.includeLocalSecondaryIndexes()) ? table.localSecondaryIndexes().size() : 0;
        long items = backup.itemCount();
        ManifestSummary summary = backup.summary();
        long bytes = summary.billedSizeBytes() == null ? 0 : summary.billedSizeBytes();
        long unitWrites = backup.metadata().writeUnits() != null ? backup.metadata().writeUnits()
                : Math.max(items, (bytes + 1023) / 1024);
        // every write is applied to each LSI that projects the item: the same units again per LSI
        long wcu = unitWrites * (1 + lsis);
        var source = new SourceRef(request.source().account(), request.source().region(), request.source().table(),
                backup.backupId(), backup.metadata().takenAt());
        return RestorePlanned.of(request.restoreId(), RestorePlanned.Strategy.ITEM_WRITES, source,
                new TableRef(destination.account(), destination.region(), destination.tableName()),
                backup.files().size(), items, bytes, wcu);
    }

    DestinationReady prepare(RestoreRequested request) {
        Backup backup = backup(request);
        var destination = (Destination.NewTable) request.destination();
        try {
            tables.ensure(request.restoreId(), destination, backup.metadata().tableDescription(),
                    backup.metadata().tableTags());
        } catch (TableCreator.DestinationException e) {
            throw new StepException(e.getMessage());
        }
        return DestinationReady.of(request.restoreId(),
                new TableRef(destination.account(), destination.region(), destination.tableName()), true);
    }

    SegmentsDispatched dispatch(RestoreRequested request, RestorePlanned plan) {
        Backup backup = backup(request);
        List<String> keys = TableSpecs.keyAttributes(backup.metadata().tableDescription().keySchema());
        var target = new SegmentDispatched.WriteTarget(plan.destination().account(), plan.destination().region(),
                plan.destination().tableName(), keys);
        var sends = new ArrayList<CompletableFuture<RecordMetadata>>();
        List<ManifestFile> files = backup.files();
        for (int i = 0; i < files.size(); i++) {
            ManifestFile f = files.get(i);
            var work = SegmentDispatched.of(request.restoreId(), i, files.size(),
                    new SegmentDispatched.DataFile(backup.layout().bucket(), f.dataFileS3Key(),
                            f.itemCount() == null ? 0 : f.itemCount(), f.md5Checksum(), "DYNAMODB_JSON"),
                    target);
            sends.add(publisher.send(Topic.SEGMENTS, Topic.workKey(request.restoreId(), i), work));
        }
        sends.forEach(EventPublisher::await);
        return SegmentsDispatched.of(request.restoreId(), files.size());
    }

    /** A step cannot go on; the message is the restore's failure reason. */
    static final class StepException extends RuntimeException {
        StepException(String message) {
            super(message);
        }
    }
}
