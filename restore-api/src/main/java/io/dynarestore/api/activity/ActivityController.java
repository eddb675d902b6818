package io.dynarestore.api.activity;

import static io.dynarestore.api.problems.QueryParams.instant;
import static io.dynarestore.api.problems.QueryParams.invalid;
import static io.dynarestore.api.problems.QueryParams.ofMicros;
import static io.dynarestore.core.pitr.PitrCoverage.micros;

import io.dynarestore.api.catalog.TableRefs;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /tables/{table}/activity}: a table's writes by step from its change log, and the runs of
 * steps that stand out, each with the last second before it as a restore point (and whether the
 * window holds it). Counts only: no item is shown, so the catalog's {@code read} role suffices.
 */
@RestController
class ActivityController {

    static final int MAX_STEPS = 10_000;
    static final long DEFAULT_TIME_LIMIT_MS = 10_000;
    static final long MAX_TIME_LIMIT_MS = 30_000;

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;

    ActivityController(VaultCatalog catalog, AwsClients aws, Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
    }

    /** The steps a timeline is counted by. */
    enum StepSize {
        SECOND(Duration.ofSeconds(1)),
        MINUTE(Duration.ofMinutes(1)),
        HOUR(Duration.ofHours(1));

        final Duration length;

        StepSize(Duration length) {
            this.length = length;
        }
    }

    record StepView(Instant start, long creates, long overwrites, long deletes, long writeUnits) {}

    /**
     * @param suggestedSecond the last second before the run: the restore point to consider
     * @param restorable      whether the point-in-time window holds it
     */
    record FlagView(
            Instant start,
            Instant end,
            Set<AnomalyDetector.Signal> signals,
            List<String> reasons,
            Instant suggestedSecond,
            boolean restorable) {}

    /**
     * @param countedUntil every write before it is counted (the end when complete)
     * @param approximate  a compacted native export (its last write per key only) or too many repeated
     *                     writes across overlapping exports made the counts inexact
     */
    record ActivityView(
            String table,
            Instant from,
            Instant to,
            StepSize step,
            List<StepView> steps,
            List<FlagView> flags,
            boolean complete,
            Instant countedUntil,
            boolean approximate) {}

    @Operation(
            summary = "A table's writes by step, and the runs that stand out",
            description = "Counts creates, overwrites, deletes and write units per step (SECOND, MINUTE or HOUR) "
                    + "from the change log, and flags runs of steps whose deletes or overwrites are many times the "
                    + "median of the 30 steps before, or where one attribute is rewritten by most overwrites; each "
                    + "flag suggests the last second before it. from defaults to 24 hours before to (now).")
    @GetMapping(path = "/tables/{table}/activity", produces = MediaType.APPLICATION_JSON_VALUE)
    ActivityView activity(
            @PathVariable String table,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(required = false) String step,
            @RequestParam(required = false) Long timeLimitMs,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws, Access::toReadCatalog, "Reading the catalog of account");
        StepSize size = stepSize(step);
        long stepMicros = size.length.toNanos() / 1_000;
        Instant now = clock.instant();
        Instant hi = align(instant("to", to, now), stepMicros, true);
        Instant lo = align(instant("from", from, hi.minus(Duration.ofDays(1))), stepMicros, false);
        if (!lo.isBefore(hi)) {
            throw invalid("/to", "to must be after from: give from < to.");
        }
        long count = (micros(hi) - micros(lo)) / stepMicros;
        if (count > MAX_STEPS) {
            throw invalid(
                    "/step",
                    "From " + lo + " to " + hi + " is " + count + " steps of a "
                            + size.name().toLowerCase(Locale.ROOT) + "; at most " + MAX_STEPS
                            + ": give a larger step or a shorter range.");
        }
        long limit = timeLimitMs == null ? DEFAULT_TIME_LIMIT_MS : timeLimitMs;
        if (limit < 1 || limit > MAX_TIME_LIMIT_MS) {
            throw invalid("/timeLimitMs", "timeLimitMs must be between 1 and " + MAX_TIME_LIMIT_MS + ".");
        }
        var exports = catalog.listExports(ref.account(), ref.region(), table);
        // the steps before from are the pattern the first steps are judged against
        long historyFrom = micros(lo) - AnomalyDetector.TRAILING * stepMicros;
        var counted = new ChangeCounts(new VaultActivity(aws.s3(), catalog, exports))
                .count(historyFrom, micros(hi), stepMicros, System.nanoTime() + limit * 1_000_000);
        var all = counted.steps();
        var flags = new AnomalyDetector().flags(all, AnomalyDetector.TRAILING);
        var coverage = PitrCoverage.of(catalog.listBackups(ref.account(), ref.region(), table), exports, now);
        var steps = all.subList(AnomalyDetector.TRAILING, all.size()).stream()
                .map(s -> new StepView(ofMicros(s.startMicros), s.creates, s.overwrites, s.deletes, s.writeUnits))
                .toList();
        var flagViews = flags.stream()
                .map(f -> {
                    Instant start = ofMicros(all.get(f.first()).startMicros);
                    Instant suggested = start.minusSeconds(1);
                    return new FlagView(
                            start,
                            ofMicros(all.get(f.last()).startMicros + stepMicros),
                            f.signals(),
                            f.reasons(),
                            suggested,
                            coverage.resolve(suggested).isPresent());
                })
                .toList();
        return new ActivityView(
                table,
                lo,
                hi,
                size,
                steps,
                flagViews,
                counted.complete(),
                ofMicros(Math.max(counted.countedUntil(), micros(lo))),
                counted.approximate());
    }

    private static StepSize stepSize(String step) {
        if (step == null) {
            return StepSize.MINUTE;
        }
        try {
            return StepSize.valueOf(step.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid("/step", "step must be SECOND, MINUTE or HOUR.");
        }
    }

    /** {@code t} on a step boundary: down, or up when {@code up} and not on one already. */
    private static Instant align(Instant t, long stepMicros, boolean up) {
        long m = micros(t);
        long down = Math.floorDiv(m, stepMicros) * stepMicros;
        return ofMicros(up && down != m ? down + stepMicros : down);
    }
}
