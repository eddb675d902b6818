package io.dynarestore.api.links;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.links.PasscodeAccepted;
import io.dynarestore.contracts.links.PasscodeTried;
import io.dynarestore.core.kafka.ConsumerHealth;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.kafka.TopicLog;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;

/**
 * Passcode-protected links to granular-recovery files. Issues a link (a random token and a
 * passcode, the passcode kept only as an Argon2 hash) and decides each passcode try.
 *
 * <p>Rule: a try is written to {@code restore.links} before its passcode is checked, and it is
 * checked only if fewer than {@code max-tries} tries that were not accepted come before it in
 * the log. The log's order is the same for every replica and survives restarts, so the limit
 * holds across replicas, restarts and concurrent guesses: at most {@code max-tries} wrong
 * passcodes are ever checked for one link.
 */
public final class Links implements SmartLifecycle {

    /** What the submitter is shown once: the passcode and when the link expires. */
    public record IssuedLink(String linkId, String passcode, Instant expiresAt) {}

    /** The outcome of one passcode try. */
    sealed interface Verdict {
        record Accepted(LinkLedger.Link link) implements Verdict {}

        record Wrong(int triesLeft) implements Verdict {}

        record Locked() implements Verdict {}

        record Expired(Instant at) implements Verdict {}

        record Unknown() implements Verdict {}

        record Unavailable() implements Verdict {}
    }

    private final LinkLedger ledger = new LinkLedger();
    private final TopicLog log;
    private final EventPublisher publisher;
    private final ApiProperties.Links settings;
    private final Clock clock;
    private final Secrets secrets = new Secrets();
    private final Argon2PasswordEncoder argon2 = Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8();
    private final MeterRegistry meters;

    Links(
            Map<String, Object> consumerConfig,
            EventPublisher publisher,
            ApiProperties.Links settings,
            Clock clock,
            MeterRegistry meters,
            ConsumerHealth health) {
        this.log = new TopicLog(consumerConfig, "restore-api-links", Topic.LINKS.topicName(), health, ledger::apply);
        this.publisher = publisher;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
    }

    /** A new link id, for a request to carry before its link is issued. */
    public static String newLinkId() {
        return UUID.randomUUID().toString();
    }

    /** Issues link {@code linkId} to the file of {@code restoreId} for {@code recipients}; returns the passcode, once. */
    public IssuedLink issue(String linkId, String restoreId, List<String> recipients, String message) {
        String passcode = secrets.passcode();
        Instant expiresAt = clock.instant().plus(settings.expiry()).truncatedTo(ChronoUnit.SECONDS);
        var issued = LinkIssued.of(
                restoreId,
                linkId,
                secrets.token(),
                argon2.encode(Secrets.normalize(passcode)),
                recipients,
                message,
                expiresAt);
        var at = EventPublisher.await(publisher.send(Topic.LINKS, linkId, issued));
        log.awaitPosition(at.partition(), at.offset(), settings.logWait());
        return new IssuedLink(linkId, passcode, expiresAt);
    }

    /** The link a token opens, if any; a token not known yet is looked up again after reading the log up to now. */
    Optional<LinkLedger.Link> find(String token) {
        var link = ledger.byToken(token);
        if (link.isEmpty() && log.awaitCaughtUp(settings.logWait())) {
            link = ledger.byToken(token);
        }
        return link;
    }

    boolean expired(LinkLedger.Link link) {
        return !clock.instant().isBefore(link.expiresAt);
    }

    boolean locked(LinkLedger.Link link) {
        return link.unaccepted() >= settings.maxTries();
    }

    int triesLeft(LinkLedger.Link link) {
        return Math.max(0, settings.maxTries() - link.unaccepted());
    }

    /** Decides one try of {@code entered} on the link of {@code token}. */
    Verdict tryPasscode(String token, String entered) {
        var found = find(token);
        if (found.isEmpty()) {
            return new Verdict.Unknown();
        }
        LinkLedger.Link link = found.get();
        if (expired(link)) {
            return new Verdict.Expired(link.expiresAt);
        }
        if (locked(link)) {
            return count(new Verdict.Locked());
        }
        String tryId = UUID.randomUUID().toString();
        var at = EventPublisher.await(
                publisher.send(Topic.LINKS, link.linkId, PasscodeTried.of(link.restoreId, link.linkId, tryId)));
        if (!log.awaitPosition(at.partition(), at.offset(), settings.logWait())) {
            return new Verdict.Unavailable();
        }
        int before = link.unacceptedBefore(at.offset());
        if (before >= settings.maxTries()) {
            return count(new Verdict.Locked());
        }
        if (!argon2.matches(Secrets.normalize(entered), link.passcodeHash)) {
            return count(new Verdict.Wrong(settings.maxTries() - before - 1));
        }
        EventPublisher.await(
                publisher.send(Topic.LINKS, link.linkId, PasscodeAccepted.of(link.restoreId, link.linkId, tryId)));
        link.accepted(tryId); // the log says so too; this replica need not wait to read it back
        return count(new Verdict.Accepted(link));
    }

    private Verdict count(Verdict verdict) {
        meters.counter(
                        "dynarestore.links.tries",
                        "outcome",
                        verdict.getClass().getSimpleName().toLowerCase())
                .increment();
        return verdict;
    }

    private volatile boolean running;

    @Override
    public void start() {
        log.start();
        // serve links only with every try made before this replica started counted
        if (!log.awaitCaughtUp(settings.logWait().multipliedBy(6))) {
            LoggerFactory.getLogger(Links.class)
                    .warn(
                            "{} was not read to its end at start; links are " + "looked up again as they are asked for",
                            Topic.LINKS.topicName());
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        log.close();
    }

    @Override
    public int getPhase() {
        return 0; // before the web server
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
