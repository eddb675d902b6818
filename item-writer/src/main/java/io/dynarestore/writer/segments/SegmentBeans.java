package io.dynarestore.writer.segments;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.writer.WriterProperties;
import io.dynarestore.writer.capacity.WriteBudgets;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The collaborators that write segments, one bean each, so that each is built once from the
 * settings it needs (and a test can decorate one, as a fault, without a hook in this code).
 */
@Configuration(proxyBeanMethods = false)
class SegmentBeans {

    @Bean
    Outages outages(WriterProperties properties) {
        return new Outages(
                properties.resilience().openWait(), properties.resilience().maxOutage());
    }

    @Bean
    WriteBudgets writeBudgets(WriterProperties properties, AwsClients aws, MeterRegistry meters) {
        var b = properties.budget();
        return new WriteBudgets(
                aws,
                new WriteBudgets.Settings(
                        b.provisionedShare(),
                        b.onDemandTarget(),
                        b.onDemandInitialPeak(),
                        b.batchShare(),
                        b.throttleFloor(),
                        b.recoveryStep(),
                        b.refresh()),
                meters);
    }

    @Bean
    BatchWriter batchWriter(WriterProperties properties, Outages outages) {
        var retry = properties.retry();
        return new BatchWriter(new Backoff(retry.maxAttempts(), retry.baseDelay(), retry.maxDelay()), outages);
    }

    @Bean
    SegmentVault segmentVault(AwsClients aws, Outages outages) {
        return new SegmentVault(aws, outages, Clock.systemUTC());
    }

    @Bean
    BatchApplier batchApplier(BatchWriter batches, SegmentVault vault) {
        return new DynamoBatchApplier(batches, vault);
    }

    @Bean
    SegmentWriter segmentWriter(
            WriterProperties properties,
            AwsClients aws,
            EventPublisher publisher,
            BatchWriter batches,
            BatchApplier applier,
            SegmentVault vault,
            WriteBudgets budgets,
            Outages outages) {
        return new SegmentWriter(
                aws,
                publisher,
                batches,
                applier,
                vault,
                properties.progressInterval(),
                Clock.systemUTC(),
                budgets,
                outages);
    }
}
