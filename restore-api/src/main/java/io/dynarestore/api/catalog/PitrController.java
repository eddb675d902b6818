package io.dynarestore.api.catalog;

import static io.dynarestore.api.problems.QueryParams.instant;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.pitr.PitrCoverage.Window;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Point-in-time availability of a table: the windows of restorable seconds and the gaps between
 * them, the quick links (latest backup, latest Snap, latest restorable second), and a calendar
 * of a month for the web page (ADR 0006).
 */
@RestController
class PitrController {

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;

    PitrController(VaultCatalog catalog, AwsClients aws, Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
    }

    @Operation(
            summary = "Restorable windows of a table",
            description = "Windows are inclusive ranges of whole seconds (UTC); a restore to second T holds every "
                    + "write made before T+1s. from and to (ISO-8601) clip the answer.")
    @GetMapping(path = "/tables/{table}/pitr-windows", produces = MediaType.APPLICATION_JSON_VALUE)
    Windows windows(
            @PathVariable String table,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws);
        Instant lo = instant("from", from, Instant.MIN);
        Instant hi = instant("to", to, Instant.MAX);
        var backups = catalog.listBackups(ref.account(), ref.region(), table);
        var snaps = catalog.listSnaps(ref.account(), ref.region(), table);
        var availability = PitrCoverage.of(
                        backups, catalog.listExports(ref.account(), ref.region(), table), clock.instant())
                .availability();
        var latestBackup = backups.stream()
                .filter(b -> !b.expiredAt(clock.instant()))
                .reduce((a, b) -> b)
                .map(b -> new Link(b.backupId(), b.takenAt()))
                .orElse(null);
        var latestSnap = snaps.stream()
                .reduce((a, b) -> b)
                .map(s -> new Link(s.snapId(), s.takenAt()))
                .orElse(null);
        return new Windows(
                table,
                ref.account(),
                ref.region(),
                clip(availability.windows(), lo, hi),
                clip(availability.gaps(), lo, hi),
                latestBackup,
                latestSnap,
                availability.latestRestorable());
    }

    @Operation(
            summary = "A month of a table's history, day by day",
            description = "For each day (UTC): the backups and Snaps taken, and which seconds are restorable "
                    + "(pitr FULL, PARTIAL or NONE).")
    @GetMapping(path = "/tables/{table}/calendar", produces = MediaType.APPLICATION_JSON_VALUE)
    Calendar calendar(
            @PathVariable String table,
            @RequestParam String month,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws);
        YearMonth ym;
        try {
            ym = YearMonth.parse(month);
        } catch (DateTimeParseException e) {
            throw new ApiProblem(400, "INVALID_REQUEST", "month '" + month + "' is not of the form 2026-11.", null);
        }
        Instant now = clock.instant();
        var backups = catalog.listBackups(ref.account(), ref.region(), table);
        var snaps = catalog.listSnaps(ref.account(), ref.region(), table);
        var windows = PitrCoverage.of(backups, catalog.listExports(ref.account(), ref.region(), table), now)
                .availability()
                .windows();
        var days = new ArrayList<Day>();
        for (int d = 1; d <= ym.lengthOfMonth(); d++) {
            LocalDate date = ym.atDay(d);
            Instant start = date.atStartOfDay(ZoneOffset.UTC).toInstant();
            Instant end = start.plusSeconds(86_399);
            var restorable = clip(windows, start, end);
            long seconds = restorable.stream()
                    .mapToLong(w -> w.end().getEpochSecond() - w.start().getEpochSecond() + 1)
                    .sum();
            String pitr = seconds == 0 ? "NONE" : seconds == 86_400 ? "FULL" : "PARTIAL";
            var dayBackups = backups.stream()
                    .filter(b -> within(b.takenAt(), start, end))
                    .map(b -> new Link(b.backupId(), b.takenAt(), b.expiredAt(now)))
                    .toList();
            var daySnaps = snaps.stream()
                    .filter(s -> within(s.takenAt(), start, end))
                    .map(s -> new Link(s.snapId(), s.takenAt()))
                    .toList();
            days.add(new Day(date, dayBackups, daySnaps, pitr, restorable));
        }
        return new Calendar(table, ym.toString(), days);
    }

    private static boolean within(Instant t, Instant start, Instant end) {
        return !t.isBefore(start) && !t.isAfter(end.plusSeconds(1).minusNanos(1));
    }

    private static List<Window> clip(List<Window> windows, Instant lo, Instant hi) {
        var result = new ArrayList<Window>();
        for (Window w : windows) {
            Instant start = w.start().isBefore(lo) ? lo : w.start();
            Instant end = w.end().isAfter(hi) ? hi : w.end();
            if (!start.isAfter(end)) {
                result.add(new Window(start, end));
            }
        }
        return result;
    }

    /** A backup or Snap, by id and time. */
    record Link(String id, Instant takenAt, Boolean expired) {
        Link(String id, Instant takenAt) {
            this(id, takenAt, null);
        }
    }

    record Windows(
            String table,
            String account,
            String region,
            List<Window> windows,
            List<Window> gaps,
            Link latestBackup,
            Link latestSnap,
            Instant latestRestorable) {}

    record Day(LocalDate date, List<Link> backups, List<Link> snaps, String pitr, List<Window> restorable) {}

    record Calendar(String table, String month, List<Day> days) {}
}
