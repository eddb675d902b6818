package io.dynarestore.exporter.files;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.contracts.work.ExportWork;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.exporter.ExporterApplication.ExporterProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Takes one export at a time off {@code restore.exports} and writes its file. An export holds its
 * partition until it ends (the group's poll interval is {@code exporter.max-export}); its offset is
 * committed after its outcome is on the status topic, so a crash redoes it (the object is written
 * whole again under the same key). A work item that is not valid goes to the DLT; a backup that
 * is gone or damaged fails the restore through {@code SegmentFailed} with the reason.
 */
@Component
class ExportWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ExportWorker.class);

    private final TopicFollower follower;
    private final VaultCatalog catalog;
    private final CsvExport export;
    private final EventPublisher publisher;
    private final Counter exported;
    private volatile boolean running;

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
        this.exported = meters.counter("dynarestore.exporter.items");
        var config = new HashMap<>(kafka.buildConsumerProperties());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int)
                properties.maxExport().toMillis());
        this.follower = new TopicFollower(config, properties.group(), Topic.EXPORTS.topicName(), health, this::handle);
    }

    void handle(ConsumerRecord<String, byte[]> record) {
        ExportDispatched work;
        try {
            var parsed = Json.mapper().readValue(record.value(), ExportWork.class);
            work = (ExportDispatched) parsed;
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
                    "not a valid ExportDispatched message: " + e.getMessage(),
                    null);
            return;
        }
        try {
            var backup = catalog.findBackup(work.account(), work.region(), work.table(), work.backupId())
                    .orElseThrow(() -> new IllegalStateException(
                            "backup " + work.backupId() + " of table " + work.table() + " is no longer in the vault"));
            RecordFilter filter = work.filter() == null
                    ? null
                    : RecordFilter.compile(work.filter(), KeySchema.of(work.keyAttributes(), work.keyTypes()));
            var summary = export.export(
                    backup,
                    filter,
                    work.keyAttributes(),
                    work.cap(),
                    work.bucket(),
                    work.key(),
                    n -> log.info("restore {}: {} items exported so far", work.restoreId(), n));
            exported.increment(summary.items());
            publisher.status(ExportCompleted.of(
                    work.restoreId(),
                    summary.bucket(),
                    summary.key(),
                    summary.items(),
                    summary.bytes(),
                    summary.sha256(),
                    summary.capped(),
                    summary.matching()));
            log.info(
                    "restore {}: {} items ({} bytes) exported to s3://{}/{}{}",
                    work.restoreId(),
                    summary.items(),
                    summary.bytes(),
                    summary.bucket(),
                    summary.key(),
                    summary.capped() ? ", stopped at the cap" : "");
        } catch (RuntimeException e) {
            // never a silent loss: the restore fails with the reason (a transient S3 failure too, for now)
            log.warn("restore {}: export failed", work.restoreId(), e);
            publisher.status(
                    SegmentFailed.of(work.restoreId(), 0, "the export failed: " + e.getMessage(), 0, "exporter"));
            DeadLetters.send(publisher, record, "EXPORT_FAILED", e.getMessage(), null);
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
