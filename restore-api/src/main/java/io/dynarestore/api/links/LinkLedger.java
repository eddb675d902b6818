package io.dynarestore.api.links;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.links.LinkEvent;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.links.PasscodeAccepted;
import io.dynarestore.contracts.links.PasscodeTried;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The fold of {@code restore.links}: every link with its tries in log order. The one place where
 * restore-api decides whether a link is locked, so that every replica (each folding the same
 * one-partition log) decides the same. Keeps only the SHA-256 of each token.
 */
final class LinkLedger {

    /** A link as the log says it is. */
    static final class Link {
        final String linkId;
        final String restoreId;
        final String passcodeHash;
        final Instant expiresAt;
        final List<String> recipients;
        final String message;
        /** Tries by id, with their offsets on the log, in log order. */
        private final Map<String, Long> tries = new LinkedHashMap<>();

        private final Set<String> accepted = new HashSet<>();

        Link(LinkIssued issued) {
            this.linkId = issued.linkId();
            this.restoreId = issued.restoreId();
            this.passcodeHash = issued.passcodeHash();
            this.expiresAt = issued.expiresAt();
            this.recipients = issued.recipients();
            this.message = issued.message();
        }

        /** Tries before log offset {@code offset} that no acceptance followed: wrong, or never finished. */
        synchronized int unacceptedBefore(long offset) {
            int n = 0;
            for (var t : tries.entrySet()) {
                if (t.getValue() < offset && !accepted.contains(t.getKey())) {
                    n++;
                }
            }
            return n;
        }

        synchronized int unaccepted() {
            return unacceptedBefore(Long.MAX_VALUE);
        }

        synchronized void tried(String tryId, long offset) {
            tries.putIfAbsent(tryId, offset);
        }

        synchronized void accepted(String tryId) {
            accepted.add(tryId);
        }
    }

    private final Map<String, Link> byId = new ConcurrentHashMap<>();
    private final Map<String, String> idByTokenHash = new ConcurrentHashMap<>();

    void apply(ConsumerRecord<String, byte[]> record) {
        LinkEvent event;
        try {
            event = Json.mapper().readValue(record.value(), LinkEvent.class);
        } catch (RuntimeException e) {
            return; // not a link event: nothing of ours to fold
        }
        apply(event, record.offset());
    }

    void apply(LinkEvent event, long offset) {
        if (event instanceof LinkIssued issued) {
            byId.putIfAbsent(issued.linkId(), new Link(issued));
            idByTokenHash.putIfAbsent(Secrets.sha256(issued.token()), issued.linkId());
        } else if (event instanceof PasscodeTried tried) {
            Link link = byId.get(tried.linkId());
            if (link != null) {
                link.tried(tried.tryId(), offset);
            }
        } else if (event instanceof PasscodeAccepted accepted) {
            Link link = byId.get(accepted.linkId());
            if (link != null) {
                link.accepted(accepted.tryId());
            }
        }
    }

    Optional<Link> byToken(String token) {
        String id = token == null ? null : idByTokenHash.get(Secrets.sha256(token));
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    Optional<Link> byId(String linkId) {
        return Optional.ofNullable(byId.get(linkId));
    }
}
