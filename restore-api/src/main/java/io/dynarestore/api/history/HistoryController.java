package io.dynarestore.api.history;

import static io.dynarestore.api.problems.QueryParams.instant;
import static io.dynarestore.api.problems.QueryParams.invalid;
import static io.dynarestore.api.problems.QueryParams.ofMicros;
import static io.dynarestore.core.pitr.PitrCoverage.micros;

import io.dynarestore.api.catalog.TableRefs;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /tables/{table}/items/history}: every version of one item, oldest first, paged; each
 * with what a restore of that version takes (a second of the point-in-time window, or a backup),
 * when one can restore it.
 */
@RestController
class HistoryController {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1_000;
    /** A DynamoDB key is at most 2,048 bytes of partition key and 1,024 of sort key; with its JSON, well under this. */
    static final int MAX_KEY_CHARS = 8_192;

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;

    HistoryController(VaultCatalog catalog, AwsClients aws, Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
    }

    /**
     * @param time          when the write was made (for a backup's version: the backup's time, the write before it)
     * @param restoreSource what a restore of this version names as its source, {@code null} when it cannot be
     *                      restored: a second of the window where it is the key's last write, or the backup
     */
    record VersionView(
            Instant time,
            String kind,
            String origin,
            String backupId,
            JsonNode item,
            List<String> changed,
            Map<String, Object> restoreSource) {}

    record HistoryView(
            String table,
            JsonNode key,
            Instant from,
            Instant to,
            JsonNode before,
            boolean beforeKnown,
            List<VersionView> versions,
            Instant next) {}

    @Operation(
            summary = "Every version of one item",
            description = "key is the item's key in DynamoDB JSON, for example {\"pk\":{\"S\":\"order-1\"}}. Versions "
                    + "come from the backup before from and the change log after it, oldest first; next, when set, is "
                    + "the from of the next page. A version whose restoreSource is set can be restored by a record "
                    + "restore of that key from that source.")
    @GetMapping(path = "/tables/{table}/items/history", produces = MediaType.APPLICATION_JSON_VALUE)
    HistoryView history(
            @PathVariable String table,
            @RequestParam String key,
            @RequestParam(required = false) String from,
            @RequestParam(required = false) String to,
            @RequestParam(required = false) Integer limit,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref =
                TableRefs.of(table, account, region, aws, Access::toReadBackupData, "Reading item history of account");
        int pageSize = limit == null ? DEFAULT_LIMIT : limit;
        if (pageSize < 1 || pageSize > MAX_LIMIT) {
            throw invalid("/limit", "limit must be between 1 and " + MAX_LIMIT + ".");
        }
        Instant now = clock.instant();
        Instant asked = instant("from", from, null);
        Instant hi = instant("to", to, now);
        if (asked != null && hi.isBefore(asked)) {
            throw invalid("/to", "to (" + hi + ") is before from (" + asked + "): give from <= to.");
        }
        var backups = catalog.listBackups(ref.account(), ref.region(), table);
        var unexpired = backups.stream().filter(b -> !b.expiredAt(now)).toList();
        var exports = catalog.listExports(ref.account(), ref.region(), table);
        // by default from the first thing the vault knows of the table: its first backup, or an earlier export
        Instant lo = asked != null
                ? asked
                : Stream.concat(
                                unexpired.stream().map(b -> b.takenAt()),
                                exports.stream().map(e -> e.from()))
                        .min(Instant::compareTo)
                        .orElse(Instant.EPOCH);
        var latest = unexpired.stream()
                .reduce((a, b) -> b)
                .flatMap(b -> catalog.findBackup(ref.account(), ref.region(), table, b.backupId()))
                .orElseThrow(() -> ApiProblem.rejected(
                        RejectionCode.BACKUP_NOT_FOUND,
                        "Table " + table + " has no unexpired backup, so its key schema is not known: protect it, "
                                + "or register an export, first.",
                        null));
        KeySchema schema = KeySchema.of(latest.metadata().tableDescription());
        var itemKey = key(key, schema);
        var vault = new VaultHistory(
                aws.s3(),
                catalog,
                new VaultHistory.TableAt(ref.account(), ref.region(), table),
                unexpired,
                exports,
                schema.names());
        var page = new ItemHistory(vault).read(itemKey, micros(lo), micros(hi), pageSize);
        var coverage = PitrCoverage.of(backups, exports, now);
        var versions = new ArrayList<VersionView>();
        for (int i = 0; i < page.versions().size(); i++) {
            var v = page.versions().get(i);
            Long following = i + 1 < page.versions().size()
                    ? Long.valueOf(page.versions().get(i + 1).micros())
                    : page.next();
            versions.add(new VersionView(
                    ofMicros(v.micros()),
                    v.kind().name(),
                    v.origin().name(),
                    v.backupId(),
                    json(v.image()),
                    v.changed(),
                    restoreSource(v, following, coverage)));
        }
        return new HistoryView(
                table,
                json(itemKey),
                lo,
                hi,
                json(page.before()),
                page.beforeKnown(),
                versions,
                page.next() == null ? null : ofMicros(page.next()));
    }

    /**
     * A second restores a version when the window holds it and no later write of the key falls in it; a
     * backup's version restores from the backup. A deleted item is not restored (a record restore writes
     * the items its filter matches at T, and a deleted one matches nothing).
     */
    static Map<String, Object> restoreSource(ItemHistory.Version v, Long followingMicros, PitrCoverage coverage) {
        if (v.kind() == ItemHistory.Kind.DELETED) {
            return null;
        }
        if (v.origin() == ItemHistory.Origin.BACKUP) {
            return Map.of("backupId", v.backupId());
        }
        long second = Math.floorDiv(v.micros(), 1_000_000L);
        if (followingMicros != null && Math.floorDiv(followingMicros, 1_000_000L) == second) {
            return null;
        }
        Instant t = Instant.ofEpochSecond(second);
        return coverage.resolve(t).isPresent() ? Map.of("pointInTime", t.toString()) : null;
    }

    /** The key asked for: a DynamoDB JSON object of exactly the table's key attributes, of their types. */
    static Map<String, AttributeValue> key(String json, KeySchema schema) {
        String example = "{\"" + schema.partitionKey() + "\":{\"" + schema.partitionType() + "\":\"...\"}"
                + (schema.sortKey() == null
                        ? ""
                        : ",\"" + schema.sortKey() + "\":{\"" + schema.sortType() + "\":\"...\"}")
                + "}";
        if (json.length() > MAX_KEY_CHARS) {
            throw invalid("/key", "key is longer than any DynamoDB key (" + json.length() + " characters).");
        }
        Map<String, AttributeValue> key;
        try {
            key = DynamoJson.fromJson(json);
        } catch (RuntimeException e) { // DynamoJsonException, or Jackson's own for JSON that does not parse
            throw invalid("/key", "key is not an item key in DynamoDB JSON: give " + example + ".");
        }
        if (key == null || !key.keySet().equals(new HashSet<>(schema.names()))) {
            throw invalid(
                    "/key",
                    "key must hold exactly the table's key attributes " + schema.names() + ": give " + example + ".");
        }
        for (int i = 0; i < schema.names().size(); i++) {
            String name = schema.names().get(i);
            String type = schema.types().get(i);
            if (!type.equals(key.get(name).type().toString())) {
                throw invalid("/key", "key attribute " + name + " must be of type " + type + ": give " + example + ".");
            }
        }
        return key;
    }

    private static JsonNode json(Map<String, AttributeValue> item) {
        return item == null ? null : Json.mapper().readTree(DynamoJson.toJson(item));
    }
}
