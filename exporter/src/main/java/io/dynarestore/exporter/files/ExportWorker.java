package io.dynarestore.exporter.files;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.contracts.work.ExportMergeDispatched;
import io.dynarestore.contracts.work.ExportWork;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.exporter.ExporterApplication.ExporterProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Takes one export at a time off {@code restore.exports} and writes its file; or, for a split
 * export (ADR 0041), stages one part ({@code SegmentCompleted} with the part's number) or merges
 * the staged parts into the file. An export holds its
 * partition until it ends (the group's poll interval is {@code exporter.max-export}); its offset is
 * committed after its outcome is on the status topic, so a crash redoes it (the object is written
 * whole again under the same key). A work item that is not valid goes to the DLT; a backup that
 * is gone or damaged fails the restore through {@code SegmentFailed} with the reason.
 */
@Component
class ExportWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ExportWorker.class);

    /** The most parts a split export has (the schema's bound). */
    private static final int MAX_PARTS = 64;

    private final TopicFollower follower;
    private final VaultCatalog catalog;
    private final CsvExport export;
    private final SplitExport splits;
    private final EventPublisher publisher;
    private final Counter exported;
    /** Names this replica in its parts' events: host, process and which exporter of the process. */
    private final String name;

    private volatile boolean running;

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    ExportWorker(
            KafkaProperties kafka,
            ExporterProperties properties,
            AwsClients aws,
            VaultCatalog catalog,
            EventPublisher publisher,
            MeterRegistry meters,
            ConsumerHealth health) {
        this.catalog = catalog;
        this.publisher = publisher;
        this.export = new CsvExport(aws.s3(), (int) properties.partSize().toBytes());
        this.splits = new SplitExport(aws.s3(), (int) properties.partSize().toBytes(), properties.copyPartsInS3());
        this.exported = meters.counter("dynarestore.exporter.items");
        this.name = hostName() + "/" + ProcessHandle.current().pid() + "/" + INSTANCES.getAndIncrement();
        var config = new HashMap<>(kafka.buildConsumerProperties());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int)
                properties.maxExport().toMillis());
        this.follower = new TopicFollower(config, properties.group(), Topic.EXPORTS.topicName(), health, this::handle);
    }

    void handle(ConsumerRecord<String, byte[]> record) {
        ExportWork work;
        try {
            work = valid(Json.mapper().readValue(record.value(), ExportWork.class));
        } catch (RuntimeException e) {
            log.warn(
                    "{}-{}@{}: not a valid export work item; sent to the DLT",
                    record.topic(),
                    record.partition(),
                    record.offset());
            DeadLetters.send(
                    publisher,
                    record,
                    "INVALID_WORK_ITEM",
                    "not a valid ExportDispatched or ExportMergeDispatched message: " + e.getMessage(),
                    null);
            return;
        }
        int segment = 0; // a whole export is segment 0, a part its number, a merge the one after the parts
        try {
            if (work instanceof ExportMergeDispatched m) {
                segment = m.parts();
                merge(m);
            } else if (work instanceof ExportDispatched d && d.split() != null) {
                segment = d.split().part();
                part(d);
            } else {
                whole((ExportDispatched) work);
            }
        } catch (RuntimeException e) {
            // never a silent loss: the restore fails with the reason (a transient S3 failure too, for now)
            log.warn("restore {}: export failed", work.restoreId(), e);
            publisher.status(
                    SegmentFailed.of(work.restoreId(), segment, "the export failed: " + e.getMessage(), 0, name));
            DeadLetters.send(publisher, record, "EXPORT_FAILED", e.getMessage(), null);
        }
    }

    /** The checks a split or a merge needs beyond its schema: its part among its parts. */
    private static ExportWork valid(ExportWork work) {
        if (work instanceof ExportDispatched d && d.split() != null) {
            var s = d.split();
            if (s.parts() < 1 || s.part() < 0 || s.part() >= s.parts() || s.staging() == null) {
                throw new IllegalArgumentException("split part " + s.part() + " of " + s.parts()
                        + " is not a part of its export (0 <= part < parts, with a staging folder)");
            }
        }
        if (work instanceof ExportMergeDispatched m && (m.parts() < 1 || m.parts() > MAX_PARTS)) {
            throw new IllegalArgumentException("a merge of " + m.parts() + " parts; 1 to " + MAX_PARTS + " are merged");
        }
        return work;
    }

    private void whole(ExportDispatched work) {
        var summary = export.export(
                backupOf(work),
                filterOf(work),
                work.keyAttributes(),
                work.cap(),
                work.bucket(),
                work.key(),
                n -> log.info("restore {}: {} items exported so far", work.restoreId(), n));
        exported.increment(summary.items());
        completed(work.restoreId(), summary);
    }

    private void part(ExportDispatched work) {
        var split = work.split();
        long started = System.nanoTime();
        var part = splits.exportPart(
                backupOf(work), split, filterOf(work), work.keyAttributes(), work.cap(), work.bucket());
        exported.increment(part.rows());
        long ms = segmentDone(work.restoreId(), split.part(), started, part.rows(), part.bytes());
        log.info(
                "restore {}: part {} of {} (data files {} to {}) staged, {} rows in {} ms",
                work.restoreId(),
                split.part(),
                split.parts(),
                split.firstFile(),
                split.endFile(),
                part.rows(),
                ms);
    }

    private void merge(ExportMergeDispatched work) {
        if (splits.mergedBefore(work.bucket(), work.key(), work.staging())) {
            log.info(
                    "restore {}: merged before (its file is there and its parts are gone); nothing to do",
                    work.restoreId());
            return;
        }
        long started = System.nanoTime();
        var summary = splits.merge(
                work.bucket(),
                work.key(),
                work.staging(),
                work.parts(),
                work.keyAttributes(),
                work.cap(),
                n -> log.info("restore {}: {} rows merged so far", work.restoreId(), n));
        // the merge is the export's last segment: dashboards count it done before the file completes the restore
        segmentDone(work.restoreId(), work.parts(), started, 0, 0);
        completed(work.restoreId(), summary);
    }

    /**
     * A part or the merge of a split export is done: a segment with the rows a part staged, so that
     * dashboards see the export's items grow part by part (the merge's ExportCompleted then gives the
     * file's own count, which replaces them: {@code RestoreView.itemsWritten}). Returns how long it took, in ms.
     */
    private long segmentDone(String restoreId, int segment, long startedNanos, long rows, long bytes) {
        long ms = (System.nanoTime() - startedNanos) / 1_000_000;
        publisher.status(SegmentCompleted.of(
                restoreId, segment, new SegmentCompleted.Counts(rows, 0, 0, 0, 0), bytes, 0, name, ms));
        return ms;
    }

    private Backup backupOf(ExportDispatched work) {
        return catalog.findBackup(work.account(), work.region(), work.table(), work.backupId())
                .orElseThrow(() -> new IllegalStateException(
                        "backup " + work.backupId() + " of table " + work.table() + " is no longer in the vault"));
    }

    private static RecordFilter filterOf(ExportDispatched work) {
        return work.filter() == null
                ? null
                : RecordFilter.compile(work.filter(), KeySchema.of(work.keyAttributes(), work.keyTypes()));
    }

    private void completed(String restoreId, CsvExport.Summary summary) {
        publisher.status(ExportCompleted.of(
                restoreId,
                summary.bucket(),
                summary.key(),
                summary.items(),
                summary.bytes(),
                summary.sha256(),
                summary.capped(),
                summary.matching()));
        log.info(
                "restore {}: {} items ({} bytes) exported to s3://{}/{}{}",
                restoreId,
                summary.items(),
                summary.bytes(),
                summary.bucket(),
                summary.key(),
                summary.capped() ? ", stopped at the cap" : "");
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "exporter";
        }
    }

    @Override
    public void start() {
        running = true;
        follower.start();
    }

    @Override
    public void stop() {
        running = false;
        follower.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
