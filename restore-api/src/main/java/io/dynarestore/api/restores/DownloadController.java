package io.dynarestore.api.restores;

import io.dynarestore.api.problems.ApiProblem;
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
 */
@RestController
class DownloadController {

    private final RestoreViews views;
    private final RestoreFiles files;

    DownloadController(RestoreViews views, RestoreFiles files) {
        this.views = views;
        this.files = files;
    }

    @Operation(summary = "Download a restore's CSV file",
            description = "For a restore into a FILE with DOWNLOAD delivery, once it COMPLETED. 404 for an unknown "
                    + "restore, 409 while the file is not written yet or for a restore into a table.")
    @GetMapping(path = "/restores/{restoreId}/download")
    ResponseEntity<StreamingResponseBody> download(@PathVariable String restoreId) {
        var summary = views.find(restoreId).orElseThrow(() -> new ApiProblem(404, "RESTORE_NOT_FOUND",
                "There is no restore " + restoreId + ".", null));
        var file = views.file(restoreId).orElseThrow(() -> new ApiProblem(409, "FILE_NOT_READY",
                "Restore " + restoreId + " has no file to download (it is " + summary.state() + "). A file exists "
                        + "once a restore into a FILE destination COMPLETED; see GET /restores/" + restoreId + ".",
                null));
        return files.stream(file);
    }
}
