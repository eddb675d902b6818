package io.dynarestore.contracts.request;

import java.time.Instant;

/**
 * Object Mother of restore requests: a whole-table restore of backup {@code b1} of table
 * {@code orders} into a new table {@code orders-restored}, in account {@value #ACCOUNT} and region
 * {@value #REGION}, changed only where a test says so; instead of the record's eleven positional
 * arguments.
 */
public final class RestoreRequests {

    public static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";

    private final String restoreId;
    private String requestedBy;
    private Source source = Source.backup(ACCOUNT, REGION, "orders", "b1");
    private Scope scope = new Scope.Full();
    private Destination destination = new Destination.NewTable(null, null, "orders-restored", null);
    private Notify notification;
    private Boolean dryRun;

    private RestoreRequests(String restoreId) {
        this.restoreId = restoreId;
    }

    /** A request with the given id (or none: {@code null} lets the system choose). */
    public static RestoreRequests aRestore(String restoreId) {
        return new RestoreRequests(restoreId);
    }

    public RestoreRequests from(Source source) {
        this.source = source;
        return this;
    }

    /** From backup {@code backupId} of {@code table} in the default account and region. */
    public RestoreRequests fromBackup(String table, String backupId) {
        return from(Source.backup(ACCOUNT, REGION, table, backupId));
    }

    public RestoreRequests scope(Scope scope) {
        this.scope = scope;
        return this;
    }

    public RestoreRequests into(Destination destination) {
        this.destination = destination;
        return this;
    }

    public RestoreRequests intoNewTable(String table) {
        return into(new Destination.NewTable(null, null, table, null));
    }

    public RestoreRequests inPlace() {
        return into(new Destination.InPlace());
    }

    public RestoreRequests requestedBy(String requestedBy) {
        this.requestedBy = requestedBy;
        return this;
    }

    public RestoreRequests notifying(Notify notification) {
        this.notification = notification;
        return this;
    }

    /** To a CSV file delivered as {@code delivery}. */
    public RestoreRequests toFile(Destination.Delivery delivery) {
        return into(new Destination.File("CSV", delivery));
    }

    public RestoreRequests dryRun() {
        this.dryRun = true;
        return this;
    }

    /** As a client sends it: no envelope, defaults left to the system. */
    public RestoreRequested build() {
        return new RestoreRequested(
                restoreId, null, null, null, null, requestedBy, source, scope, destination, notification, dryRun);
    }

    /** As the system publishes it: defaults filled in, event id {@code e-<restoreId>}, at the epoch. */
    public RestoreRequested normalized() {
        return normalizedAt(Instant.EPOCH);
    }

    /** As the system publishes it at {@code when}: defaults filled in, event id {@code e-<restoreId>}. */
    public RestoreRequested normalizedAt(Instant when) {
        return build().normalized(restoreId, "e-" + restoreId, when);
    }
}
