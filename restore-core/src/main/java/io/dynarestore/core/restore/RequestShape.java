package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.webhooks.WebhookAddresses;
import java.util.List;

/**
 * The rules on a request's shape alone, checked before anything is looked up: every webhook may
 * be posted to (the one rule of {@link WebhookAddresses}), a dry run goes to a table that holds
 * items, a file is exported from a backup as CSV and an email link is issued only by restore-api,
 * and an in-place restore never crosses accounts or regions.
 */
final class RequestShape {

    private RequestShape() {}

    /** The first rule the request breaks, or {@code null}. */
    static Verdict check(RestoreRequested request, WebhookAddresses webhooks) {
        Verdict targets = webhookTargets(request, webhooks);
        if (targets != null) {
            return targets;
        }
        if (request.dry()
                && !(request.destination() instanceof Destination.ExistingTable
                        || request.destination() instanceof Destination.InPlace)) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/dryRun",
                    "A dry run shows what a restore would "
                            + "change in a table that holds items: use it with an EXISTING_TABLE or IN_PLACE destination, or "
                            + "leave dryRun out (a new table starts empty, a file changes no table).");
        }
        if (request.destination() instanceof Destination.File file) {
            return fileCheck(request.source(), file);
        }
        if (request.destination() instanceof Destination.InPlace inPlace) {
            return inPlaceCrossing(request.source(), inPlace);
        }
        return null;
    }

    /** Every webhook of the request may be posted to, or the first that may not. */
    private static Verdict webhookTargets(RestoreRequested request, WebhookAddresses webhooks) {
        var urls = request.notification() == null || request.notification().webhooks() == null
                ? List.<String>of()
                : request.notification().webhooks();
        for (int i = 0; i < urls.size(); i++) {
            String why = webhooks.refusal(urls.get(i));
            if (why != null) {
                return Verdict.problem(
                        RejectionCode.INVALID_REQUEST,
                        "/notify/webhooks/" + i,
                        "notify.webhooks[" + i + "] " + why + ".");
            }
        }
        return null;
    }

    /** An in-place restore names the source's account and region or none: it never crosses either. */
    private static Verdict inPlaceCrossing(Source source, Destination.InPlace inPlace) {
        boolean otherAccount = inPlace.account() != null && !inPlace.account().equals(source.account());
        boolean otherRegion = inPlace.region() != null && !inPlace.region().equals(source.region());
        if (!otherAccount && !otherRegion) {
            return null;
        }
        String crossing = otherAccount && otherRegion
                ? "account " + inPlace.account() + " and region " + inPlace.region()
                : otherAccount ? "account " + inPlace.account() : "region " + inPlace.region();
        return Verdict.problem(
                RejectionCode.INVALID_REQUEST,
                otherAccount ? "/destination/account" : "/destination/region",
                "An in-place restore writes back into the source table " + source.table() + " of account "
                        + source.account() + " region " + source.region() + "; it cannot cross to " + crossing
                        + ". To restore into another account or region, use a NEW_TABLE or EXISTING_TABLE "
                        + "destination with that account and region.");
    }

    /**
     * Granular recovery exports records of a backup (as the spec offers it) and delivers the file
     * for download; a point in time, a Snap or email delivery is refused with what to do instead.
     */
    private static Verdict fileCheck(Source source, Destination.File file) {
        if (source.kind() == Source.Kind.POINT_IN_TIME) {
            return Verdict.problem(
                    RejectionCode.UNSUPPORTED,
                    "/source/pointInTime",
                    "Granular recovery (a FILE "
                            + "destination) exports the records of a backup, not of a point in time. Name a backupId, or "
                            + "restore the point in time into a NEW_TABLE and export from there.");
        }
        if (source.kind() == Source.Kind.SNAP) {
            return Verdict.problem(
                    RejectionCode.UNSUPPORTED,
                    "/source/snapId",
                    "A Snap is restored by DynamoDB into a new "
                            + "table, not exported to a file; restore it into a NEW_TABLE, or export a vault backup "
                            + "(source.backupId).");
        }
        if (file.format() != null && !"CSV".equals(file.format())) {
            return Verdict.problem(
                    RejectionCode.INVALID_REQUEST,
                    "/destination/format",
                    "Files are written as CSV; " + "set format to CSV or leave it out.");
        }
        if (file.delivery() instanceof Destination.Delivery.Email email && email.linkId() == null) {
            return Verdict.problem(
                    RejectionCode.UNSUPPORTED,
                    "/destination/delivery",
                    "Delivery by email link needs a "
                            + "passcode that only restore-api hands out (once, in its answer); submit this request with "
                            + "POST /restores, or use {\"type\": \"DOWNLOAD\"} and GET /restores/{restoreId}/download.");
        }
        return null;
    }
}
