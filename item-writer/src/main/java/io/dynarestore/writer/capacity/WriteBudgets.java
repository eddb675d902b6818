package io.dynarestore.writer.capacity;

import io.dynarestore.contracts.work.SegmentDispatched.WriteTarget;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.retry.Pacer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * The write budget of every destination table, and this replica's part of it. A table's budget is
 * a share of its provisioned WCU, or for an on-demand table a target reached no faster than
 * DynamoDB adapts (twice the previous peak per 30 minutes), from the table's warm throughput where
 * it was created warm for the restore. This replica writes at
 * budget x its share of the pending segments ({@link ReplicaShare}) x the throttling factor
 * ({@link Aimd}), paced so
 * that no one-second window sees more than that rate plus one batch ({@link io.dynarestore.core.retry.Pacer}); batches are
 * cut to a tenth of the rate, so all replicas together stay within 110% of the budget in any
 * second. A write costs ceil(size / 1 KB) units, once more for each LSI whose sort key the item has.
 * An endpoint that does not enforce provisioned capacity (dynalite) is budgeted like on-demand.
 */
public final class WriteBudgets {

    /**
     * @param provisionedShare    share of a provisioned table's WCU the restore may use
     * @param onDemandTarget      WCU per second aimed at for an on-demand table
     * @param onDemandInitialPeak WCU per second an on-demand table takes at once (then doubled per 30 min)
     * @param batchShare          the most a batch may cost, as a share of one second's rate
     * @param throttleFloor       the lowest share of the budget throttling can bring the rate to
     * @param recoveryStep        the share of the budget each second without throttling adds back
     * @param refresh             how often a table's capacity is read again
     */
    public record Settings(
            double provisionedShare,
            long onDemandTarget,
            long onDemandInitialPeak,
            double batchShare,
            double throttleFloor,
            double recoveryStep,
            Duration refresh) {}

    /** WCU per second assumed for a table whose capacity could not be read yet. */
    static final double UNKNOWN_BUDGET = 100;

    private static final long RAMP_NANOS = Duration.ofMinutes(30).toNanos();

    /**
     * An on-demand table's budget: from what it takes at once (DynamoDB's initial peak, or the
     * table's warm throughput where higher), doubled every 30 minutes up to the target (or the warm
     * throughput where higher), never above the table's own most on-demand write rate.
     */
    static double onDemandBudget(Settings settings, TableDescription d, long elapsedNanos) {
        var warmth = d.warmThroughput();
        long warm = warmth == null
                        || warmth.writeUnitsPerSecond() == null
                        || warmth.status() != null && warmth.status() != TableStatus.ACTIVE
                ? 0
                : warmth.writeUnitsPerSecond();
        double peak = Math.max(settings.onDemandInitialPeak(), warm);
        double target = Math.max(settings.onDemandTarget(), warm);
        double budget = Math.min(target, peak * Math.pow(2, Math.min(20, elapsedNanos / RAMP_NANOS)));
        Long most =
                d.onDemandThroughput() == null ? null : d.onDemandThroughput().maxWriteRequestUnits();
        return most != null && most > 0 ? Math.min(budget, most) : budget;
    }

    private final AwsClients aws;
    private final Settings settings;
    private final MeterRegistry meters;
    private final LongSupplier nanos;
    private final ReplicaShare share = new ReplicaShare();
    private final Map<String, Table> tables = new ConcurrentHashMap<>();

    public WriteBudgets(AwsClients aws, Settings settings, MeterRegistry meters) {
        this(aws, settings, meters, System::nanoTime);
    }

    WriteBudgets(AwsClients aws, Settings settings, MeterRegistry meters, LongSupplier nanos) {
        this.aws = aws;
        this.settings = settings;
        this.meters = meters;
        this.nanos = nanos;
    }

    public void partitionsAssigned(Collection<Integer> partitions) {
        share.assigned(partitions);
    }

    public void partitionsRevoked(Collection<Integer> partitions) {
        share.revoked(partitions);
    }

    /** A reading of the writer group's lag on the segments topic: pending segments by partition. */
    public void lag(Map<Integer, Long> lagByPartition) {
        share.lag(lagByPartition);
    }

    public void totalPartitions(int n) {
        share.totalPartitions(n);
    }

    /** The lane of writes into {@code target}, shared by every segment this replica writes there. */
    public Lane lane(WriteTarget target) {
        String key = target.account() + "/" + target.region() + "/" + target.tableName();
        Table table = tables.computeIfAbsent(key, k -> new Table(target));
        return new Lane(table, target.lsiSortKeysOrEmpty());
    }

    /** Writes into one table from this replica: what they cost, how big a batch may be, when to send it. */
    public final class Lane {
        private final Table table;
        private final List<String> lsiSortKeys;
        private final AtomicLong throttledHere = new AtomicLong();

        /** Throttled calls of this lane (one segment's writes). */
        public long throttles() {
            return throttledHere.get();
        }

        private Lane(Table table, List<String> lsiSortKeys) {
            this.table = table;
            this.lsiSortKeys = lsiSortKeys;
        }

        /** Units a put of {@code item} consumes. */
        public long cost(Map<String, AttributeValue> item) {
            long units = ItemSize.wcu(ItemSize.of(item));
            long indexes = 0;
            for (String k : lsiSortKeys) {
                if (item.containsKey(k)) {
                    indexes++;
                }
            }
            return units * (1 + indexes);
        }

        /** The most units one batch may cost (at least one item always goes). */
        public long maxBatchUnits() {
            return Math.max(1, (long) (table.rate() * settings.batchShare()));
        }

        /** Waits until {@code units} may be sent; false when aborted or interrupted while waiting. */
        public boolean acquire(long units, BooleanSupplier aborted) {
            long wait = table.pacer.reserve(units, table.rate(), nanos.getAsLong());
            table.consumed.increment(units);
            while (wait > 0) {
                if (aborted.getAsBoolean()) {
                    return false;
                }
                long slice = Math.min(wait, 100_000_000L);
                try {
                    Thread.sleep(slice / 1_000_000, (int) (slice % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                wait -= slice;
            }
            return true;
        }

        /** DynamoDB throttled a write of this lane (an exception or unprocessed items). */
        public void throttled() {
            throttledHere.incrementAndGet();
            table.throttles.increment();
            table.aimd.throttled(nanos.getAsLong());
        }

        /** DynamoDB took {@code items} items of {@code bytes} bytes. */
        public void wrote(long items, long bytes) {
            table.items.increment(items);
            table.bytes.increment(bytes);
        }

        /** A call to DynamoDB for this lane is made again. */
        public void retried() {
            table.retries.increment();
        }

        /** This replica's current rate for the table, in units per second. */
        public double rate() {
            return table.rate();
        }
    }

    private final class Table {
        final WriteTarget target;
        final Pacer pacer = new Pacer();
        final Aimd aimd = new Aimd(settings.throttleFloor(), settings.recoveryStep());
        final long firstSeen = nanos.getAsLong();
        final Counter throttles;
        final Counter consumed;
        final Counter items;
        final Counter bytes;
        final Counter retries;
        volatile double budget = -1;
        volatile long budgetReadAt;

        Table(WriteTarget target) {
            this.target = target;
            this.throttles = Counter.builder("dynarestore.writer.throttles")
                    .tag("table", target.tableName())
                    .description("writes DynamoDB throttled (exceptions and unprocessed batches)")
                    .register(meters);
            this.consumed = Counter.builder("dynarestore.writer.wcu")
                    .tag("table", target.tableName())
                    .description("write units sent")
                    .register(meters);
            this.items = Counter.builder("dynarestore.writer.items")
                    .tag("table", target.tableName())
                    .description("items DynamoDB took (puts and deletes)")
                    .register(meters);
            this.bytes = Counter.builder("dynarestore.writer.bytes")
                    .tag("table", target.tableName())
                    .description("bytes of the items put")
                    .baseUnit("bytes")
                    .register(meters);
            this.retries = Counter.builder("dynarestore.writer.retries")
                    .tag("table", target.tableName())
                    .description("calls to DynamoDB made again (throttled, unprocessed items, errors)")
                    .register(meters);
            Gauge.builder("dynarestore.writer.rate", this, Table::rate)
                    .tag("table", target.tableName())
                    .description("this replica's write rate for the table, WCU per second")
                    .register(meters);
            Gauge.builder("dynarestore.writer.budget", this, t -> t.budget)
                    .tag("table", target.tableName())
                    .description("the table's write budget across all replicas, WCU per second")
                    .register(meters);
        }

        double rate() {
            long now = nanos.getAsLong();
            return budget(now) * share.share() * aimd.factor(now);
        }

        double budget(long now) {
            if (budget < 0 || now - budgetReadAt > settings.refresh().toNanos()) {
                try {
                    TableDescription d = aws.dynamo(target.account(), target.region())
                            .describeTable(b -> b.tableName(target.tableName()))
                            .table();
                    budget = budgetOf(d, now - firstSeen);
                } catch (RuntimeException e) {
                    // unreadable for now (an outage, a deleted table): the writes themselves will say so;
                    // until then keep the last budget, or a cautious one
                    if (budget < 0) {
                        budget = UNKNOWN_BUDGET;
                    }
                }
                budgetReadAt = now;
            }
            return budget;
        }

        double budgetOf(TableDescription d, long elapsed) {
            boolean onDemand = d.billingModeSummary() != null
                    && d.billingModeSummary().billingMode() == BillingMode.PAY_PER_REQUEST;
            var region = aws.region(target.account(), target.region());
            if (!onDemand && (region == null || region.enforcesCapacity())) {
                Long wcu = d.provisionedThroughput() == null
                        ? null
                        : d.provisionedThroughput().writeCapacityUnits();
                return Math.max(1, (wcu == null ? 1 : wcu) * settings.provisionedShare());
            }
            return onDemandBudget(settings, d, elapsed);
        }
    }
}
