package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Faults for end-to-end tests, as a decorator of the writer's {@link BatchApplier} (test code
 * only; production configuration has no hooks):
 * <ul>
 *   <li>one lost write, for the verification's test: the first write of one segment of one restore is
 *       left out silently (neither applied nor counted), once per attempt at the segment;</li>
 *   <li>racing writes, for strict undos' test: an application writing to the destination at the worst
 *       moment, after the writer read a batch's keys and before it writes them. Each image
 *       {@link #inject injected} for a restore is put, once, just before the batch holding its key is
 *       applied.</li>
 * </ul>
 */
public final class WriterFaults implements BatchApplier {

    /** Per restore, the images to put by key (the key attributes' values in the table's order). */
    private static final Map<String, Map<List<AttributeValue>, Map<String, AttributeValue>>> RACING =
            new ConcurrentHashMap<>();

    private final BatchApplier applier;
    private final String droppingRestoreId;
    private final int droppingSegment;
    /** The attempts (one tally each) that lost their write already. */
    private final Set<WriteTally> dropped = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private WriterFaults(BatchApplier applier, String droppingRestoreId, int droppingSegment) {
        this.applier = applier;
        this.droppingRestoreId = droppingRestoreId;
        this.droppingSegment = droppingSegment;
    }

    /**
     * Installs the faults in an item-writer about to start: it loses the first write of
     * {@code segment} of {@code restoreId}, and puts the images injected for any restore.
     */
    public static ApplicationContextInitializer<ConfigurableApplicationContext> installed(
            String restoreId, int segment) {
        return context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof BatchApplier a ? new WriterFaults(a, restoreId, segment) : bean;
            }
        });
    }

    /** Puts each of {@code items} just before the writer applies the batch holding its key in {@code restoreId}. */
    public static void inject(String restoreId, List<Map<String, AttributeValue>> items, List<String> keyNames) {
        var byKey = new ConcurrentHashMap<List<AttributeValue>, Map<String, AttributeValue>>();
        items.forEach(item -> byKey.put(keyNames.stream().map(item::get).toList(), item));
        RACING.put(restoreId, byKey);
    }

    /** How many injected images are still waiting for their batch. */
    public static int pending(String restoreId) {
        var byKey = RACING.get(restoreId);
        return byKey == null ? 0 : byKey.size();
    }

    @Override
    public void apply(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            List<WriteOp> batch,
            Map<List<AttributeValue>, Map<String, AttributeValue>> current,
            WriteTally tally) {
        if (work.restoreId().equals(droppingRestoreId)
                && work.segment() == droppingSegment
                && !batch.isEmpty()
                && dropped.add(tally)) {
            batch = batch.subList(1, batch.size());
        }
        var racing = RACING.get(work.restoreId());
        if (racing != null && !work.dry()) {
            for (WriteOp op : batch) {
                var item = racing.remove(op.key());
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
