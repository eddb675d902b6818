package io.dynarestore.api.restores;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.links.Links;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.request.RequestDefaults;
import io.dynarestore.core.request.RequestReader;
import io.dynarestore.core.restore.RestoreValidator;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /restores}: submit a restore and follow it. A submission is checked exactly as the
 * planner checks requests from Kafka, published to {@code restore.requests}, and answered with
 * 202 and the restore's location; a POST with a restore id already used for the same request
 * answers with the existing restore (200), for a different request with 409.
 */
@RestController
class RestoresController {

    private static final Logger log = LoggerFactory.getLogger(RestoresController.class);

    private final RestoreViews views;
    private final RestoreValidator validator;
    private final EventPublisher publisher;
    private final AwsClients aws;
    private final ApiProperties properties;
    private final Clock clock;
    private final Links links;
    private final CallerLimits limits;

    /**
     * The answer to a submission: the restore's summary, and for a file sent by email link the
     * passcode, shown here once and never again.
     */
    record Submitted(@JsonUnwrapped RestoreSummary restore, EmailLink emailLink) {}

    /** The passcode of an email link: give it to the recipients by another channel than email. */
    record EmailLink(String passcode, Instant expiresAt, List<String> recipients, String note) {}

    RestoresController(
            RestoreViews views,
            RestoreValidator validator,
            EventPublisher publisher,
            AwsClients aws,
            ApiProperties properties,
            Clock clock,
            Links links,
            CallerLimits limits) {
        this.limits = limits;
        this.views = views;
        this.validator = validator;
        this.publisher = publisher;
        this.aws = aws;
        this.properties = properties;
        this.clock = clock;
        this.links = links;
    }

    @Operation(
            summary = "Start a restore",
            description = "Takes the request JSON of RestoreRequested.schema.json. Answers 202 with Location "
                    + "/restores/{restoreId}, 200 when the same restoreId was already submitted with the same "
                    + "request, or a problem (400, 409, 422) that says what to fix.")
    @PostMapping(
            path = "/restores",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Submitted> submit(
            @RequestBody(description = "a RestoreRequested") @org.springframework.web.bind.annotation.RequestBody
                    byte[] body) {
        RequestReader.Result result = RequestReader.read(body, UUID.randomUUID().toString());
        if (result instanceof RequestReader.Invalid invalid) {
            throw ApiProblem.rejected(invalid.code(), invalid.reason(), invalid.errors());
        }
        RestoreRequested request = RequestDefaults.apply(
                ((RequestReader.Valid) result).request(),
                aws.defaultAccount(),
                aws.defaultRegion(),
                UUID.randomUUID().toString(),
                clock.instant());
        Callers.require(Access.requiredFor(request, aws.defaultAccount()), "This restore");
        limits.submission(Callers.name());
        if (request.requestedBy() == null) {
            request = requestedBy(request, Callers.name());
        }
        log.info(
                "restore {} submitted by {} (on behalf of {})",
                request.restoreId(),
                Callers.name(),
                request.requestedBy());
        URI location = URI.create("/restores/" + request.restoreId());

        var known = views.find(request.restoreId());
        if (known.isPresent()) {
            return resubmitted(request, known.get(), location);
        }
        if (request.destination() instanceof Destination.File file
                && file.delivery() instanceof Destination.Delivery.Email email) {
            // the request names its link before the check; the link itself is issued once the check passed
            request = withDestination(request, new Destination.File(file.format(), email.withLink(Links.newLinkId())));
        }
        if (validator.check(request) instanceof RestoreValidator.Verdict.Problem p) {
            throw ApiProblem.rejected(p.code(), p.reason(), p.errors());
        }
        EmailLink emailLink = request.destination() instanceof Destination.File file
                        && file.delivery() instanceof Destination.Delivery.Email email
                ? emailLink(request, email)
                : null;
        EventPublisher.await(publisher.send(Topic.REQUESTS, request.restoreId(), request, Callers.name()));
        views.submitted(request);
        RestoreSummary summary = views.awaitVerdict(request.restoreId(), properties.verdictTimeout());
        if (summary.state() == RestoreState.REJECTED) {
            throw ApiProblem.rejected(summary.code(), summary.reason(), null);
        }
        return ResponseEntity.accepted().location(location).body(new Submitted(summary, emailLink));
    }

    /**
     * A request whose id is known already: the same request again is answered as before (idempotent);
     * a rejected id or another request under the same id is refused.
     */
    private ResponseEntity<Submitted> resubmitted(RestoreRequested request, RestoreSummary known, URI location) {
        if (known.state() == RestoreState.REJECTED) {
            throw ApiProblem.rejected(
                    known.code(),
                    "restoreId " + request.restoreId() + " was rejected and cannot be reused: " + known.reason(),
                    null);
        }
        if (views.sameRequest(request.restoreId(), request)) {
            return ResponseEntity.ok().location(location).body(new Submitted(known, null));
        }
        throw new ApiProblem(
                409,
                "RESTORE_ID_TAKEN",
                "restoreId " + request.restoreId()
                        + " is already used by a different restore; leave restoreId out, or choose a new one.",
                List.of(new RestoreRejected.FieldError("/restoreId", "already used by a different restore")));
    }

    /** Issues the link of an email delivery (before the request exists, so that the notifier always finds it). */
    private EmailLink emailLink(RestoreRequested request, Destination.Delivery.Email email) {
        Links.IssuedLink issued = links.issue(email.linkId(), request.restoreId(), email.recipients(), email.message());
        return new EmailLink(
                issued.passcode(),
                issued.expiresAt(),
                email.recipients(),
                "Give this passcode to the recipients by another channel than email (phone, chat). It is "
                        + "shown only now; the emailed link opens the file only with it, and locks after "
                        + properties.links().maxTries() + " wrong tries.");
    }

    /**
     * The request with {@code caller} as its requester: a caller that acts for someone else names them
     * in {@code requestedBy}; without it, the authenticated caller is the requester.
     */
    private static RestoreRequested requestedBy(RestoreRequested r, String caller) {
        return caller == null
                ? r
                : new RestoreRequested(
                        r.restoreId(),
                        r.type(),
                        r.schemaVersion(),
                        r.eventId(),
                        r.occurredAt(),
                        caller,
                        r.source(),
                        r.scope(),
                        r.destination(),
                        r.notification(),
                        r.dryRun());
    }

    private static RestoreRequested withDestination(RestoreRequested r, Destination destination) {
        return new RestoreRequested(
                r.restoreId(),
                r.type(),
                r.schemaVersion(),
                r.eventId(),
                r.occurredAt(),
                r.requestedBy(),
                r.source(),
                r.scope(),
                destination,
                r.notification(),
                r.dryRun());
    }

    @Operation(summary = "A restore's state, progress and timeline")
    @GetMapping(path = "/restores/{restoreId}", produces = MediaType.APPLICATION_JSON_VALUE)
    RestoreSummary get(@PathVariable String restoreId) {
        var summary = views.find(restoreId)
                .orElseThrow(() -> new ApiProblem(
                        404,
                        "RESTORE_NOT_FOUND",
                        "No restore has the id " + restoreId + ". Restores started on Kafka appear once the planner "
                                + "has answered them.",
                        null));
        Callers.require(views.toFollow(restoreId, aws.defaultAccount()), "Following restore " + restoreId);
        return summary;
    }
}
