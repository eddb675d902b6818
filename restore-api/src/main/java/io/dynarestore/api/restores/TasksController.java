package io.dynarestore.api.restores;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.Schemas;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.commands.CancelRequested;
import io.dynarestore.contracts.commands.RestoreCommand;
import io.dynarestore.contracts.commands.RollbackRequested;
import io.dynarestore.contracts.status.RestoreRejected;
import io.dynarestore.contracts.status.RestoreState;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.swagger.v3.oas.annotations.Operation;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The tasks list ({@code GET /restores}: newest first, filtered, paged by cursor) and cancel
 * ({@code POST /restores/{id}/cancel}, a {@code CancelRequested} on {@code restore.commands}), and
 * rollback ({@code POST /restores/{id}/rollback}, a {@code RollbackRequested} there).
 */
@RestController
class TasksController {

    static final int MAX_LIMIT = 500;

    private final RestoreViews views;
    private final EventPublisher publisher;
    private final String defaultAccount;
    private final CallerLimits limits;

    TasksController(RestoreViews views, EventPublisher publisher, AwsClients aws, CallerLimits limits) {
        this.defaultAccount = aws.defaultAccount();
        this.views = views;
        this.publisher = publisher;
        this.limits = limits;
    }

    /** A page of restores, and the link to the next page while there is one. */
    record Page(List<RestoreSummary> items, String next) {}

    /** Why a restore is cancelled; both optional. */
    record CancelBody(String requestedBy, String reason) {}

    @Operation(
            summary = "Restores, newest first",
            description = "Filters: table (source or destination table name), state (one or more), since/until "
                    + "(ISO-8601 instants bounding createdAt). limit 1-500 (50). Follow next for the next page.")
    @GetMapping(path = "/restores", produces = MediaType.APPLICATION_JSON_VALUE)
    Page list(
            @RequestParam(required = false) String table,
            @RequestParam(required = false) List<String> state,
            @RequestParam(required = false) String since,
            @RequestParam(required = false) String until,
            @RequestParam(defaultValue = "50") int limit,
            @RequestParam(required = false) String cursor) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw problem("/limit", "limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
        }
        Set<RestoreState> states = state == null
                ? null
                : state.stream()
                        .flatMap(s -> List.of(s.split(",")).stream())
                        .map(s -> parseState(s.trim()))
                        .collect(Collectors.toSet());
        Instant from = instant("since", since);
        Instant to = instant("until", until);
        Key after = cursor == null ? null : Key.decode(cursor);
        Comparator<RestoreSummary> newestFirst = Comparator.comparing(Key::of, Key.NEWEST_FIRST);
        var held = Callers.roles();
        List<RestoreSummary> matching = views.all().stream()
                .filter(s -> Access.missing(views.toFollow(s.restoreId(), defaultAccount), held)
                        .isEmpty())
                .filter(s -> table == null
                        || table.equals(s.source() == null ? null : s.source().table())
                        || s.destination() != null
                                && table.equals(s.destination().tableName()))
                .filter(s -> states == null || states.contains(s.state()))
                .filter(s ->
                        from == null || s.createdAt() != null && !s.createdAt().isBefore(from))
                .filter(s ->
                        to == null || s.createdAt() != null && s.createdAt().isBefore(to))
                .filter(s -> after == null || Key.NEWEST_FIRST.compare(Key.of(s), after) > 0)
                .sorted(newestFirst)
                .limit(limit + 1L)
                .toList();
        if (matching.size() <= limit) {
            return new Page(matching, null);
        }
        List<RestoreSummary> page = matching.subList(0, limit);
        RestoreSummary last = page.get(limit - 1);
        var next = new StringBuilder("/restores?limit=")
                .append(limit)
                .append("&cursor=")
                .append(Key.of(last).encode());
        if (table != null) {
            next.append("&table=").append(URLEncoder.encode(table, StandardCharsets.UTF_8));
        }
        if (states != null) {
            states.forEach(s -> next.append("&state=").append(s));
        }
        if (since != null) {
            next.append("&since=").append(since);
        }
        if (until != null) {
            next.append("&until=").append(until);
        }
        return new Page(page, next.toString());
    }

    @Operation(
            summary = "Cancel a restore",
            description = "Writers stop within seconds; items written stay; capacity raised for the restore is put "
                    + "back. 202 with the restore; 404 unknown; 409 when it ended already or is not accepted yet. "
                    + "Optional body: {\"requestedBy\": ..., \"reason\": ...}.")
    @PostMapping(path = "/restores/{restoreId}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<RestoreSummary> cancel(
            @PathVariable String restoreId, @RequestBody(required = false) CancelBody body) {
        RestoreSummary summary = acting(restoreId, "Cancelling this restore");
        if (summary.state() != null && summary.state().terminal()) {
            throw new ApiProblem(
                    409,
                    "RESTORE_ENDED",
                    "Restore " + restoreId + " is " + summary.state() + " already; there is nothing to cancel.",
                    null);
        }
        if (summary.state() == null || summary.state() == RestoreState.REQUESTED) {
            throw new ApiProblem(
                    409,
                    "RESTORE_NOT_ACCEPTED_YET",
                    "Restore " + restoreId + " has not been answered "
                            + "by the planner yet; cancel it again in a moment.",
                    null);
        }
        var cancel = checked(CancelRequested.of(restoreId, requester(body), body == null ? null : body.reason()));
        limits.submission(Callers.name());
        EventPublisher.await(publisher.send(Topic.COMMANDS, restoreId, cancel, Callers.name()));
        return ResponseEntity.accepted()
                .location(URI.create("/restores/" + restoreId))
                .body(summary);
    }

    @Operation(
            summary = "Roll a restore back",
            description = "Puts the destination of an ended restore into an existing table or in place back as it "
                    + "was before the restore, for every key the restore touched (also after a cancel or a failure), "
                    + "from the undo journal the writers kept. Changes other writers made to those keys since are "
                    + "lost. 202 with the restore; follow its rollback in GET /restores/{id}. 404 unknown; 409 when "
                    + "it is still running, wrote a new table or a file, was a dry run, or is rolled back already. "
                    + "Optional body: {\"requestedBy\": ..., \"reason\": ...}.")
    @PostMapping(path = "/restores/{restoreId}/rollback", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<RestoreSummary> rollback(
            @PathVariable String restoreId, @RequestBody(required = false) CancelBody body) {
        RestoreSummary summary = acting(restoreId, "Rolling this restore back");
        String refusal = views.rollbackRefusal(restoreId);
        if (refusal != null) {
            throw new ApiProblem(
                    409,
                    "ROLLBACK_NOT_POSSIBLE",
                    "Restore " + restoreId + " cannot be rolled back: " + refusal + ".",
                    null);
        }
        var rollback = checked(RollbackRequested.of(restoreId, requester(body), body == null ? null : body.reason()));
        limits.submission(Callers.name());
        EventPublisher.await(publisher.send(Topic.COMMANDS, restoreId, rollback, Callers.name()));
        return ResponseEntity.accepted()
                .location(URI.create("/restores/" + restoreId))
                .body(summary);
    }

    /** The restore a command acts on; 404 when unknown, 403 when the caller lacks the roles it needed. */
    private RestoreSummary acting(String restoreId, String what) {
        RestoreSummary summary = views.find(restoreId)
                .orElseThrow(() ->
                        new ApiProblem(404, "RESTORE_NOT_FOUND", "No restore has the id " + restoreId + ".", null));
        views.request(restoreId).ifPresent(r -> Callers.require(Access.requiredFor(r, defaultAccount), what));
        return summary;
    }

    /** The command, if it passes its schema (the rule every reader of restore.commands applies); else a 400. */
    private static <C extends RestoreCommand> C checked(C command) {
        var errors = Schemas.validate(command.type(), Json.mapper().valueToTree(command));
        if (!errors.isEmpty()) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "The body does not match " + command.type()
                            + ".schema.json: "
                            + errors.stream()
                                    .map(e -> e.field() + " " + e.message())
                                    .collect(Collectors.joining("; ")) + ".",
                    errors);
        }
        return command;
    }

    /** Who a command is on behalf of: the body's {@code requestedBy}, else the caller. */
    private static String requester(CancelBody body) {
        return body != null && body.requestedBy() != null ? body.requestedBy() : Callers.name();
    }

    private static RestoreState parseState(String s) {
        try {
            return RestoreState.valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw problem("/state", "state " + s + " is not one of " + List.of(RestoreState.values()));
        }
    }

    private static Instant instant(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw problem("/" + name, name + " must be an ISO-8601 instant such as 2026-11-30T10:15:00Z, not " + value);
        }
    }

    private static ApiProblem problem(String field, String message) {
        return new ApiProblem(400, "INVALID_QUERY", message, List.of(new RestoreRejected.FieldError(field, message)));
    }

    /** A position in the list: the last restore of a page. */
    private record Key(Instant createdAt, String restoreId) {
        static final Comparator<Key> NEWEST_FIRST = Comparator.comparing(
                        (Key k) -> k.createdAt() == null ? Instant.EPOCH : k.createdAt())
                .thenComparing(Key::restoreId)
                .reversed();

        static Key of(RestoreSummary s) {
            return new Key(s.createdAt(), s.restoreId());
        }

        String encode() {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(((createdAt == null ? "" : createdAt.toString()) + "|" + restoreId)
                            .getBytes(StandardCharsets.UTF_8));
        }

        static Key decode(String cursor) {
            try {
                String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                int bar = s.indexOf('|');
                return new Key(bar == 0 ? null : Instant.parse(s.substring(0, bar)), s.substring(bar + 1));
            } catch (RuntimeException e) {
                throw problem("/cursor", "cursor is not one this API gave out; start again without it");
            }
        }
    }
}
