package io.dynarestore.planner.restore;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.notifications.NotificationsRequested;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.core.kafka.DeadLetters;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.Partitions;
import io.dynarestore.core.request.RequestDefaults;
import io.dynarestore.core.request.RequestReader;
import io.dynarestore.core.restore.RestoreValidator;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes requests off {@code restore.requests}. Rules: a request is judged only on the partition
 * that owns its restore id (others forward it there); a restore id is judged once (a repeat of
 * the same request is ignored, a different request under a used id goes to the DLT without a
 * status event, which would belong to the first); every rejection is a RestoreRejected event
 * plus the original message on the DLT; a request whose proven principal (or, unproven, the
 * unidentified) lacks a role it needs is rejected FORBIDDEN before anything else is checked about
 * it. A request that names no restore id gets one derived from its position, chosen to belong to
 * the partition it arrived on, so no header ever carries an id: a message cannot name a restore
 * id other than its own body's. The notification targets go to {@code restore.notifications}
 * (the notifier's) before {@code RestoreAccepted}, which carries the request without them.
 */
final class RequestIntake {

    private static final Logger log = LoggerFactory.getLogger(RequestIntake.class);

    private final EventPublisher publisher;
    private final RestoreValidator validator;
    private final String defaultAccount;
    private final String defaultRegion;
    private final Clock clock;
    private final RequestAccess access;

    RequestIntake(
            EventPublisher publisher,
            RestoreValidator validator,
            String defaultAccount,
            String defaultRegion,
            Clock clock,
            RequestAccess access) {
        this.access = access;
        this.publisher = publisher;
        this.validator = validator;
        this.defaultAccount = defaultAccount;
        this.defaultRegion = defaultRegion;
        this.clock = clock;
    }

    /** Handles one request; returns the restore to drive on, or {@code null}. */
    TrackedRestore handle(ConsumerRecord<String, byte[]> record, OwnedRestores owned, int partitions) {
        // a redelivered record gets the same id, so a request without one is still idempotent
        String fallbackId = fallbackId(record.topic(), record.partition(), record.offset(), partitions);
        RequestReader.Result result = RequestReader.read(record.value(), fallbackId);

        if (result instanceof RequestReader.Invalid invalid) {
            invalid(record, invalid, fallbackId, owned, partitions);
            return null;
        }

        RestoreRequested request = RequestDefaults.apply(
                ((RequestReader.Valid) result).request(), defaultAccount, defaultRegion, fallbackId, clock.instant());
        int owner = Partitions.of(request.restoreId(), partitions);
        if (owner != record.partition()) {
            forward(record, request.restoreId(), record.value());
            return null;
        }
        if (known(record, request, owned, owner)) {
            return null;
        }
        RequestAccess.Identity who = access.identify(record);
        String forbidden = access.refusal(who, request);
        if (forbidden != null) {
            reject(
                    record,
                    RestoreRejected.of(request.restoreId(), RejectionCode.FORBIDDEN, forbidden, List.of()),
                    owned,
                    owner);
            return null;
        }
        RestoreValidator.Verdict verdict = validator.check(request);
        if (verdict instanceof RestoreValidator.Verdict.Problem p) {
            reject(record, RestoreRejected.of(request.restoreId(), p.code(), p.reason(), p.errors()), owned, owner);
            return null;
        }
        return accept(request, ((RestoreValidator.Verdict.Ok) verdict).pointInTime(), who, owned, owner);
    }

    /**
     * Whether the restore id is taken already: by the same request (ignored, idempotent) or by
     * another one (set aside on the dead-letter topic).
     */
    private boolean known(
            ConsumerRecord<String, byte[]> record, RestoreRequested request, OwnedRestores owned, int owner) {
        TrackedRestore known = owned.current(owner, request.restoreId(), clock.instant());
        if (known == null) {
            return false;
        }
        if (known.view.sameRequest(request)) {
            log.info("restore {}: the same request again, ignored (idempotent)", request.restoreId());
        } else {
            deadLetter(
                    record,
                    "DUPLICATE_RESTORE_ID",
                    "restoreId " + request.restoreId()
                            + " is taken by another request; choose a new restoreId for a new restore",
                    null);
        }
        return true;
    }

    /** Accepts a valid request: its notifications go out first, then RestoreAccepted, and the restore is tracked. */
    private TrackedRestore accept(
            RestoreRequested request, Instant pointInTime, RequestAccess.Identity who, OwnedRestores owned, int owner) {
        var notify = NotificationsRequested.of(request);
        if (notify != null) {
            EventPublisher.await(publisher.send(Topic.NOTIFICATIONS, request.restoreId(), notify));
        }
        var accepted =
                RestoreAccepted.of(request, pointInTime, RestoreWarnings.of(request, pointInTime), who.submitter());
        publisher.status(accepted);
        TrackedRestore tracked = owned.getOrCreate(owner, request.restoreId());
        tracked.applyLocal(accepted);
        log.info(
                "restore {} accepted from {}: {} -> {}",
                request.restoreId(),
                who.submitter(),
                request.source(),
                request.destination());
        return tracked;
    }

    /**
     * A request that cannot be read: forwarded to its owner when it names a restore id of another
     * partition, set aside when that id is taken, else rejected (with its id when it has one).
     */
    private void invalid(
            ConsumerRecord<String, byte[]> record,
            RequestReader.Invalid invalid,
            String fallbackId,
            OwnedRestores owned,
            int partitions) {
        boolean ownId = !invalid.restoreId().equals(fallbackId);
        int owner = Partitions.of(invalid.restoreId(), partitions);
        if (ownId && owner != record.partition()) {
            forward(record, invalid.restoreId(), record.value());
            return;
        }
        if (ownId && owned.get(owner, invalid.restoreId()) != null) {
            deadLetter(
                    record,
                    "DUPLICATE_RESTORE_ID",
                    "restoreId " + invalid.restoreId()
                            + " belongs to an existing restore; this invalid message under it was set aside: "
                            + invalid.reason(),
                    null);
            return;
        }
        reject(
                record,
                RestoreRejected.of(invalid.restoreId(), invalid.code(), invalid.reason(), invalid.errors()),
                owned,
                ownId ? owner : -1);
    }

    private void reject(
            ConsumerRecord<String, byte[]> record, RestoreRejected rejected, OwnedRestores owned, int owner) {
        publisher.status(rejected);
        deadLetter(record, rejected.code().name(), rejected.reason(), rejected.restoreId());
        if (owner >= 0 && owned.owns(owner)) {
            owned.getOrCreate(owner, rejected.restoreId()).applyLocal(rejected);
        }
        log.info("restore {} rejected ({}): {}", rejected.restoreId(), rejected.code(), rejected.reason());
    }

    private void deadLetter(ConsumerRecord<String, byte[]> record, String code, String reason, String restoreId) {
        DeadLetters.send(publisher, record, code, reason, restoreId);
    }

    /**
     * The id of a request that names none: derived from where it arrived (so a redelivery gets
     * the same), and owned by that very partition, so that it is judged there and never forwarded.
     */
    static String fallbackId(String topic, int partition, long offset, int partitions) {
        for (int i = 0; ; i++) { // a hash lands on any one of the partitions: this ends after about as many tries
            String id = UUID.nameUUIDFromBytes((topic + "/" + partition + "/" + offset + (i == 0 ? "" : "/" + i))
                            .getBytes(StandardCharsets.UTF_8))
                    .toString();
            if (Partitions.of(id, partitions) == partition) {
                return id;
            }
        }
    }

    /**
     * Puts the request, unchanged (headers and signature included), on the partition that owns the
     * restore id its body names, keyed by it.
     */
    private void forward(ConsumerRecord<String, byte[]> record, String restoreId, byte[] value) {
        var copy = new ProducerRecord<>(Topic.REQUESTS.topicName(), restoreId, value);
        record.headers().forEach(h -> copy.headers().add(h));
        publisher.sendRecord(copy);
        log.debug("request for {} moved from partition {} to its owner", restoreId, record.partition());
    }

    /** Why the publisher of {@code record} may not act on {@code request}'s restore, or {@code null}. */
    String refusal(ConsumerRecord<String, byte[]> record, RestoreRequested request) {
        return access.refusal(record, request);
    }
}
