package io.dynarestore.api.restores;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.Messages;
import io.dynarestore.core.kafka.TopicLog;
import io.dynarestore.core.restore.RollbackPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The tasks view of restore-api: every restore, folded from {@code restore.status} read from
 * its beginning. Each replica reads every partition itself (no consumer group), so every replica
 * sees every restore, and a restarted replica rebuilds its view from Kafka. Requests this replica
 * published but that no event has answered yet show as {@code REQUESTED}.
 *
 * <p>Rule: memory is bounded. Each restore is a {@link RestoreView}, which keeps only an outline
 * of an ended restore's request; an ended restore leaves the view {@code retainEnded} after its
 * last event (and the oldest go first beyond {@code maxEnded}); a restore id that ended longer
 * ago than that may start a new restore, whose acceptance replaces the old view.
 */
final class RestoreViews implements SmartLifecycle, DrillLookup {

    private final Map<String, RestoreView> views = new ConcurrentHashMap<>();
    private final Map<String, RestoreView> pending = new ConcurrentHashMap<>();
    private final Map<String, Position> firstEvents = new ConcurrentHashMap<>();
    private final TopicLog log;
    private final Duration retainEnded;
    private final int maxEnded;
    private final AtomicLong applied = new AtomicLong();
    private volatile boolean running;

    RestoreViews(Map<String, Object> baseConsumerConfig, ConsumerHealth health, Duration retainEnded, int maxEnded) {
        this.log = new TopicLog(baseConsumerConfig, "restore-api-views", Topic.STATUS.topicName(), health, this::apply);
        this.retainEnded = retainEnded;
        this.maxEnded = maxEnded;
    }

    /** The restore's summary, if any event (or this replica's own submission) named it. */
    Optional<RestoreSummary> find(String restoreId) {
        RestoreView view = views.get(restoreId);
        if (view == null) {
            view = pending.get(restoreId);
        }
        if (view == null) {
            return Optional.empty();
        }
        synchronized (view) {
            return Optional.of(RestoreSummary.of(view));
        }
    }

    /** The granular-recovery file of a restore, once the exporter wrote it. */
    Optional<ExportCompleted> file(String restoreId) {
        RestoreView view = views.get(restoreId);
        if (view == null) {
            return Optional.empty();
        }
        synchronized (view) {
            return Optional.ofNullable(view.exportCompleted());
        }
    }

    /** Why the restore cannot be rolled back now (as the planner judges it), or {@code null}. */
    String rollbackRefusal(String restoreId) {
        RestoreView view = views.get(restoreId);
        if (view == null) {
            return "the restore is unknown";
        }
        synchronized (view) {
            return RollbackPolicy.refusal(view);
        }
    }

    /** The request a restore was started with, if known. */
    Optional<RestoreRequested> request(String restoreId) {
        RestoreView view = views.getOrDefault(restoreId, pending.get(restoreId));
        if (view == null) {
            return Optional.empty();
        }
        synchronized (view) {
            return Optional.ofNullable(view.request());
        }
    }

    /**
     * The roles it takes to follow a restore: read, and cross-account when starting it needed that
     * ({@link Access#toFollow}); read alone for one no request is known of.
     */
    Set<Role> toFollow(String restoreId, String defaultAccount) {
        return request(restoreId).map(r -> Access.toFollow(r, defaultAccount)).orElse(EnumSet.of(Role.READ));
    }

    /** Whether {@code request} asks for the same restore as the one known under its id. */
    boolean sameRequest(String restoreId, RestoreRequested request) {
        RestoreView view = views.getOrDefault(restoreId, pending.get(restoreId));
        if (view == null) {
            return false;
        }
        synchronized (view) {
            return view.sameRequest(request);
        }
    }

    /** Records a request this replica published, until the planner answers it. */
    void submitted(RestoreRequested request) {
        pending.putIfAbsent(request.restoreId(), RestoreView.requested(request));
        if (views.containsKey(request.restoreId())) {
            pending.remove(request.restoreId()); // the planner was quicker than this line
        }
    }

    /** Waits until the planner answered the restore (or {@code timeout} passed) and returns its summary. */
    RestoreSummary awaitVerdict(String restoreId, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        synchronized (this) {
            while (!views.containsKey(restoreId) && Instant.now().isBefore(deadline)) {
                try {
                    wait(Math.max(1, Duration.between(Instant.now(), deadline).toMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return find(restoreId).orElseThrow();
    }

    void apply(RestoreEvent event) {
        RestoreView view = views.computeIfAbsent(event.restoreId(), RestoreView::new);
        if (event instanceof RestoreAccepted
                && endedBefore(view, event.occurredAt() == null ? Instant.now() : event.occurredAt())) {
            view = new RestoreView(event.restoreId()); // the id of a restore that aged out, used again
            views.put(event.restoreId(), view);
            firstEvents.remove(event.restoreId());
        }
        synchronized (view) {
            view.apply(event);
        }
        if (applied.incrementAndGet() % 1_000 == 0) {
            ageOut(Instant.now());
        }
        if (pending.remove(event.restoreId()) != null || view.state() != RestoreState.REQUESTED) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        RestoreEvent event = Messages.statusEvent(record.value());
        if (event != null && event.restoreId() != null) {
            firstEvents.putIfAbsent(event.restoreId(), new Position(record.partition(), record.offset()));
            apply(event);
        }
    }

    /** Whether {@code view} ended more than {@code retainEnded} before {@code at}. */
    private boolean endedBefore(RestoreView view, Instant at) {
        synchronized (view) {
            return view.endedBefore(at.minus(retainEnded));
        }
    }

    /** Drops ended restores older than {@code retainEnded}, then the oldest beyond {@code maxEnded}. */
    void ageOut(Instant now) {
        var ended = new ArrayList<Map.Entry<String, Instant>>();
        for (var e : views.entrySet()) {
            RestoreView view = e.getValue();
            if (endedBefore(view, now)) {
                views.remove(e.getKey(), view);
                firstEvents.remove(e.getKey());
                continue;
            }
            synchronized (view) {
                if (view.state() != null && view.state().terminal()) {
                    ended.add(Map.entry(e.getKey(), view.updatedAt()));
                }
            }
        }
        pending.values().removeIf(p -> p.createdAt() != null && p.createdAt().isBefore(now.minus(retainEnded)));
        if (ended.size() > maxEnded) {
            ended.sort(Map.Entry.comparingByValue());
            for (var e : ended.subList(0, ended.size() - maxEnded)) {
                views.remove(e.getKey());
                firstEvents.remove(e.getKey());
            }
        }
    }

    /** Where a restore's events begin on {@code restore.status}. */
    record Position(int partition, long offset) {}

    /** The position of the restore's first status event, once this replica has read it. */
    Optional<Position> firstEvent(String restoreId) {
        return Optional.ofNullable(firstEvents.get(restoreId));
    }

    @Override
    public Optional<RestoreSummary> lastDrill(String account, String region, String table) {
        return all().stream()
                .filter(r -> r.restoreId().startsWith(PREFIX) && r.source() != null)
                .filter(r -> table.equals(r.source().table())
                        && (r.source().account() == null
                                || account.equals(r.source().account()))
                        && (r.source().region() == null
                                || region.equals(r.source().region())))
                .max(Comparator.comparing(RestoreSummary::createdAt, Comparator.nullsFirst(Comparator.naturalOrder())));
    }

    /** A snapshot of every restore this replica knows (those answered by the planner and its own pending ones). */
    List<RestoreSummary> all() {
        var byId = new LinkedHashMap<String, RestoreSummary>();
        for (var map : List.of(pending, views)) { // the planner's answer wins over a pending submission
            for (RestoreView view : map.values()) {
                synchronized (view) {
                    byId.put(view.restoreId(), RestoreSummary.of(view));
                }
            }
        }
        return List.copyOf(byId.values());
    }

    /** Reads the status log up to now before the web server starts, so that a restarted replica answers as the others do. */
    @Override
    public void start() {
        log.start();
        if (!log.awaitCaughtUp(Duration.ofMinutes(1))) {
            LoggerFactory.getLogger(RestoreViews.class)
                    .warn(
                            "{} was not read to its end within a minute; " + "restores show as the log is read",
                            Topic.STATUS.topicName());
        }
        running = true;
    }

    @Override
    public int getPhase() {
        return 0; // before the web server (which starts late), so no request sees a half-read view
    }

    @Override
    public void stop() {
        running = false;
        log.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
