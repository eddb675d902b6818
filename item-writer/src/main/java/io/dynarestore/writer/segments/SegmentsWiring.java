package io.dynarestore.writer.segments;

import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.threads.DaemonThreads;
import io.dynarestore.writer.WriterProperties;
import io.dynarestore.writer.capacity.GroupLag;
import io.dynarestore.writer.capacity.WriteBudgets;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/** Starts {@code writer.consumers} segment consumers, each with its own worker thread. */
@Component
class SegmentsWiring implements SmartLifecycle {

    private final List<SegmentConsumer> consumers = new ArrayList<>();
    private final ExecutorService workers;
    private volatile boolean running;
    private final GroupLag lag;
    private final Cancellations cancellations;

    SegmentsWiring(
            KafkaProperties kafka,
            WriterProperties properties,
            SegmentWriter segmentWriter,
            WriteBudgets budgets,
            Outages outages,
            EventPublisher publisher,
            MeterRegistry meters,
            ConsumerHealth health) {
        var b = properties.budget();
        this.lag = new GroupLag(kafka.buildAdminProperties(), properties.group(), budgets, b.lagInterval(), meters);
        this.workers = Executors.newFixedThreadPool(properties.consumers(), DaemonThreads.named("segment-writer"));
        this.cancellations = new Cancellations(kafka.buildConsumerProperties(), health);
        String host = hostName();
        long pid = ProcessHandle.current().pid();
        for (int i = 0; i < properties.consumers(); i++) {
            String name = host + "/" + pid + "/" + i;
            var config = SegmentConsumer.consumerConfig(
                    kafka.buildConsumerProperties(), properties.group(), "item-writer-" + pid + "-" + i);
            consumers.add(new SegmentConsumer(
                    config,
                    segmentWriter,
                    publisher,
                    workers,
                    name,
                    properties.segmentAttempts(),
                    budgets,
                    outages,
                    cancellations,
                    meters,
                    health));
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "item-writer";
        }
    }

    @Override
    public void start() {
        running = true;
        cancellations.start();
        consumers.forEach(SegmentConsumer::start);
        lag.start();
    }

    @Override
    public void stop() {
        running = false;
        lag.close();
        consumers.parallelStream().forEach(SegmentConsumer::stop);
        workers.shutdownNow();
        cancellations.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
