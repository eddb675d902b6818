package io.dynarestore.writer.capacity;

import io.dynarestore.contracts.Topic;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the writer group's lag on {@code restore.segments} (end offset minus committed offset:
 * the segments not yet completed, those under way included) every {@code interval} and hands it
 * to the budgets, which split each table's budget by it. One reading is three admin calls.
 */
public final class GroupLag implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupLag.class);

    private final Admin admin;
    private final String group;
    private final WriteBudgets budgets;
    private final Duration interval;
    private final Thread thread;
    private volatile boolean running = true;

    private final AtomicLong total = new AtomicLong();

    public GroupLag(
            Map<String, Object> adminConfig,
            String group,
            WriteBudgets budgets,
            Duration interval,
            MeterRegistry meters) {
        Gauge.builder("dynarestore.writer.lag", total, AtomicLong::get)
                .description("work items of restore.segments not yet committed by the writer group")
                .register(meters);
        this.admin = Admin.create(adminConfig);
        this.group = group;
        this.budgets = budgets;
        this.interval = interval;
        this.thread = new Thread(this::run, "segments-lag");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        while (running) {
            try {
                var lag = read();
                total.set(lag.values().stream().mapToLong(Long::longValue).sum());
                budgets.lag(lag);
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                log.debug("could not read the lag of group {}: {}", group, e.toString());
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    Map<Integer, Long> read() throws Exception {
        var committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        var partitions = admin.describeTopics(List.of(Topic.SEGMENTS.topicName()))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get(Topic.SEGMENTS.topicName())
                .partitions();
        var latest = new HashMap<TopicPartition, OffsetSpec>();
        var earliest = new HashMap<TopicPartition, OffsetSpec>();
        for (var p : partitions) {
            var tp = new TopicPartition(Topic.SEGMENTS.topicName(), p.partition());
            latest.put(tp, OffsetSpec.latest());
            earliest.put(tp, OffsetSpec.earliest());
        }
        var ends = admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
        var starts = admin.listOffsets(earliest).all().get(10, TimeUnit.SECONDS);
        var lag = new HashMap<Integer, Long>();
        for (var tp : latest.keySet()) {
            var c = committed.get(tp);
            long from = c != null ? c.offset() : starts.get(tp).offset();
            lag.put(tp.partition(), Math.max(0, ends.get(tp).offset() - from));
        }
        return lag;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        admin.close(Duration.ofSeconds(5));
    }
}
