package io.dynarestore.api.restores;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.security.Callers;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.core.aws.AwsClients;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * {@code GET /restores/{restoreId}/download}: the granular-recovery CSV file of a restore,
 * streamed from the vault (never held in memory), with its SHA-256 in a header so that the
 * receiver can check it.
 *
 * <p>Rule: a file is handed out only to the caller who asked for it (the restore's authenticated
 * principal) while that caller holds the roles to read its source's data; a file sent by email
 * link opens only through its passcode link, never here.
 */
@RestController
class DownloadController {

    private final RestoreViews views;
    private final RestoreFiles files;
    private final String defaultAccount;

    DownloadController(RestoreViews views, RestoreFiles files, AwsClients aws) {
        this.views = views;
        this.files = files;
        this.defaultAccount = aws.defaultAccount();
    }

    @Operation(
            summary = "Download a restore's CSV file",
            description = "For a restore into a FILE with DOWNLOAD delivery, once it COMPLETED, by the caller who "
                    + "submitted it. 404 for an unknown restore, 403 for another caller or an email-link file, 409 "
                    + "while the file is not written yet or for a restore into a table.")
    @GetMapping(path = "/restores/{restoreId}/download")
    ResponseEntity<StreamingResponseBody> download(@PathVariable String restoreId) {
        var summary = views.find(restoreId)
                .orElseThrow(
                        () -> new ApiProblem(404, "RESTORE_NOT_FOUND", "There is no restore " + restoreId + ".", null));
        var request = views.request(restoreId).orElse(null);
        if (request != null) {
            Callers.require(
                    Access.toReadBackupData(request.source().account(), defaultAccount),
                    "Downloading a file of account " + request.source().account());
            if (request.destination() instanceof Destination.File f
                    && f.delivery() instanceof Destination.Delivery.Email) {
                throw new ApiProblem(
                        403,
                        "FORBIDDEN",
                        "The file of restore " + restoreId + " was sent by email link; "
                                + "it opens only through that link, with its passcode.",
                        null);
            }
        }
        String caller = Callers.name();
        if (summary.principal() == null || !summary.principal().equals(caller)) {
            throw new ApiProblem(
                    403,
                    "FORBIDDEN",
                    "The file of restore " + restoreId + " is handed out only to the "
                            + "caller who asked for it"
                            + (summary.principal() == null ? "" : " ('" + summary.principal() + "')") + ", not to "
                            + (caller == null ? "an unnamed caller" : "'" + caller + "'") + ".",
                    null);
        }
        var file = views.file(restoreId)
                .orElseThrow(() -> new ApiProblem(
                        409,
                        "FILE_NOT_READY",
                        "Restore " + restoreId + " has no file to download (it is " + summary.state()
                                + "). A file exists "
                                + "once a restore into a FILE destination COMPLETED; see GET /restores/" + restoreId
                                + ".",
                        null));
        return files.stream(file);
    }
}
