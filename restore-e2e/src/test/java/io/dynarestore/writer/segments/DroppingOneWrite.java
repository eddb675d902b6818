package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A fault for tests of the verification: a decorator of the writer's {@link BatchApplier} that
 * leaves the first write of one segment out, silently (neither applied nor counted), once per
 * attempt at the segment, as a writer that lost a line would.
 */
public final class DroppingOneWrite implements BatchApplier {

    private final BatchApplier applier;
    private final String restoreId;
    private final int segment;
    /** The attempts (one tally each) that lost their write already. */
    private final Set<WriteTally> dropped = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private DroppingOneWrite(BatchApplier applier, String restoreId, int segment) {
        this.applier = applier;
        this.restoreId = restoreId;
        this.segment = segment;
    }

    /** Installs the fault in an item-writer about to start: its batch applier is decorated. */
    public static ApplicationContextInitializer<ConfigurableApplicationContext> in(String restoreId, int segment) {
        return context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof BatchApplier a ? new DroppingOneWrite(a, restoreId, segment) : bean;
            }
        });
    }

    @Override
    public void apply(
            BatchWriter.Destination destination,
            SegmentDispatched work,
            List<WriteOp> batch,
            Map<List<AttributeValue>, Map<String, AttributeValue>> current,
            WriteTally tally) {
        if (work.restoreId().equals(restoreId) && work.segment() == segment && !batch.isEmpty() && dropped.add(tally)) {
            batch = batch.subList(1, batch.size());
        }
        applier.apply(destination, work, batch, current, tally);
    }
}
