package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A fault for tests of strict undos: a decorator of the writer's {@link BatchApplier} that plays an
 * application writing to the destination at the worst moment, after the writer read a batch's keys
 * and before it writes them. Each image {@link #inject injected} for a restore is put, once, just
 * before the batch holding its key is applied.
 */
public final class RacingWrites implements BatchApplier {

    /** Per restore, the images to put by key (the key attributes' values in the table's order). */
    private static final Map<String, Map<List<AttributeValue>, Map<String, AttributeValue>>> PENDING =
            new ConcurrentHashMap<>();

    private final BatchApplier applier;

    private RacingWrites(BatchApplier applier) {
        this.applier = applier;
    }

    /** Installs the decorator in an item-writer about to start. */
    public static ApplicationContextInitializer<ConfigurableApplicationContext> installed() {
        return context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof BatchApplier a ? new RacingWrites(a) : bean;
            }
        });
    }

    /** Puts each of {@code items} just before the writer applies the batch holding its key in {@code restoreId}. */
    public static void inject(String restoreId, List<Map<String, AttributeValue>> items, List<String> keyNames) {
        var byKey = new ConcurrentHashMap<List<AttributeValue>, Map<String, AttributeValue>>();
        items.forEach(item -> byKey.put(keyNames.stream().map(item::get).toList(), item));
        PENDING.put(restoreId, byKey);
    }

    /** How many injected images are still waiting for their batch. */
    public static int pending(String restoreId) {
        var byKey = PENDING.get(restoreId);
        return byKey == null ? 0 : byKey.size();
    }

    @Override
    public void apply(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            List<WriteOp> batch,
            Map<List<AttributeValue>, Map<String, AttributeValue>> current,
            WriteTally tally) {
        var byKey = PENDING.get(work.restoreId());
        if (byKey != null && !work.dry()) {
            for (WriteOp op : batch) {
                var item = byKey.remove(op.key());
                if (item != null) {
                    destination
                            .dynamo()
                            .putItem(b -> b.tableName(destination.table()).item(item));
                }
            }
        }
        applier.apply(destination, work, batch, current, tally);
    }
}
