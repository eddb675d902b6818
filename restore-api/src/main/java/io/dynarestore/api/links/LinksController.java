package io.dynarestore.api.links;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.api.restores.RestoreFiles;
import io.dynarestore.contracts.status.ExportCompleted;
import io.swagger.v3.oas.annotations.Operation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code /links/{token}}: the page a mailed link opens. It asks for the passcode; the right
 * passcode streams the file. Answers are HTML pages for people, or RFC 9457 problem details
 * for clients that accept JSON; either way with the status that says what happened (403 wrong
 * passcode, 423 locked, 410 expired, 409 file not ready, 404 unknown link).
 */
@RestController
class LinksController {

    private final Links links;
    private final RestoreFiles files;

    LinksController(Links links, RestoreFiles files) {
        this.links = links;
        this.files = files;
    }

    @Operation(summary = "The page of an email link: asks for the passcode")
    @GetMapping(path = "/links/{token}")
    ResponseEntity<StreamingResponseBody> page(
            @PathVariable String token, @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        Usable usable = usable(token, accept);
        return usable.refusal() != null ? usable.refusal() : html(200, form(usable.link(), null));
    }

    @Operation(
            summary = "Open an email link with its passcode: streams the file",
            description = "Form field passcode. 200 with the CSV file; 403 for a wrong passcode (the answer says "
                    + "how many tries are left); 423 once the link is locked after too many wrong passcodes; 410 "
                    + "once it expired; 409 while the file is not written yet; 404 for an unknown link.")
    @PostMapping(path = "/links/{token}", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<StreamingResponseBody> open(
            @PathVariable String token,
            @RequestParam(name = "passcode", required = false) String passcode,
            @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        Usable usable = usable(token, accept);
        if (usable.refusal() != null) {
            return usable.refusal();
        }
        LinkLedger.Link link = usable.link();
        if (passcode == null || passcode.isBlank()) {
            return refuse(
                    accept,
                    400,
                    "PASSCODE_MISSING",
                    "Enter the passcode",
                    "Send the passcode you were given (form field passcode).");
        }
        Links.Verdict verdict = links.tryPasscode(token, passcode);
        if (verdict instanceof Links.Verdict.Accepted accepted) {
            ExportCompleted file = files.file(accepted.link().restoreId).orElseThrow();
            return files.stream(file);
        }
        if (verdict instanceof Links.Verdict.Wrong wrong) {
            if (wantsJson(accept)) {
                throw new ApiProblem(
                        403,
                        "PASSCODE_WRONG",
                        "The passcode is wrong; " + wrong.triesLeft() + " tries left before the link locks.",
                        null);
            }
            return html(
                    403,
                    form(
                            link,
                            "That passcode is wrong. " + wrong.triesLeft()
                                    + (wrong.triesLeft() == 1 ? " try is" : " tries are")
                                    + " left before the link locks."));
        }
        if (verdict instanceof Links.Verdict.Expired) {
            return expired(link, accept);
        }
        if (verdict instanceof Links.Verdict.Unavailable) {
            return refuse(
                    accept,
                    503,
                    "TRY_AGAIN",
                    "Try again in a minute",
                    "The passcode could not be checked just now; nothing was counted against the link.");
        }
        return locked(accept);
    }

    /** A link that can be opened now, or the answer that says why not. */
    private record Usable(LinkLedger.Link link, ResponseEntity<StreamingResponseBody> refusal) {}

    private Usable usable(String token, String accept) {
        var link = links.find(token);
        if (link.isEmpty()) {
            return new Usable(
                    null,
                    refuse(
                            accept,
                            404,
                            "LINK_NOT_FOUND",
                            "This link does not exist",
                            "The link is not known. Check that the whole link was copied from the email."));
        }
        return new Usable(link.get(), closed(link.get(), accept).orElse(null));
    }

    /** The answer for a link that cannot be opened now (expired, locked, file not there), if any. */
    private Optional<ResponseEntity<StreamingResponseBody>> closed(LinkLedger.Link link, String accept) {
        if (links.expired(link)) {
            return Optional.of(expired(link, accept));
        }
        if (links.locked(link)) {
            return Optional.of(locked(accept));
        }
        if (files.file(link.restoreId).isEmpty()) {
            var summary = files.summary(link.restoreId);
            boolean ended = summary.isPresent()
                    && summary.get().state() != null
                    && summary.get().state().terminal();
            return Optional.of(
                    ended
                            ? refuse(
                                    accept,
                                    409,
                                    "FILE_NOT_AVAILABLE",
                                    "There is no file",
                                    "The export of this file did not complete ("
                                            + summary.get().state() + "); ask the sender " + "to run it again.")
                            : refuse(
                                    accept,
                                    409,
                                    "FILE_NOT_READY",
                                    "The file is being prepared",
                                    "The file is not written yet; open the link again in a few minutes."));
        }
        return Optional.empty();
    }

    private ResponseEntity<StreamingResponseBody> expired(LinkLedger.Link link, String accept) {
        return refuse(
                accept,
                410,
                "LINK_EXPIRED",
                "This link has expired",
                "The link expired at " + link.expiresAt + "; ask the sender for a new one.");
    }

    private ResponseEntity<StreamingResponseBody> locked(String accept) {
        return refuse(
                accept,
                423,
                "LINK_LOCKED",
                "This link is locked",
                "The link locked after too many wrong passcodes; ask the sender for a new one.");
    }

    private static ResponseEntity<StreamingResponseBody> refuse(
            String accept, int status, String code, String title, String detail) {
        if (wantsJson(accept)) {
            throw new ApiProblem(status, code, detail, null);
        }
        return html(status, document(title, "<p>" + HtmlUtils.htmlEscape(detail) + "</p>"));
    }

    private static boolean wantsJson(String accept) {
        return accept != null && accept.contains("json");
    }

    private String form(LinkLedger.Link link, String error) {
        ExportCompleted file = files.file(link.restoreId).orElseThrow();
        var body = new StringBuilder();
        body.append("<p>A file of ")
                .append(file.items())
                .append(" records (")
                .append(HtmlUtils.htmlEscape(RestoreFiles.fileName(file)))
                .append(", ")
                .append(file.bytes())
                .append(" bytes) was shared with you.</p>");
        if (link.message != null && !link.message.isBlank()) {
            body.append("<blockquote>")
                    .append(HtmlUtils.htmlEscape(link.message))
                    .append("</blockquote>");
        }
        if (error != null) {
            body.append("<p class=\"error\" role=\"alert\">")
                    .append(HtmlUtils.htmlEscape(error))
                    .append("</p>");
        }
        body.append("<form method=\"post\"><label for=\"passcode\">Passcode (given to you separately)</label>")
                .append("<input id=\"passcode\" name=\"passcode\" autocomplete=\"off\" required autofocus>")
                .append("<button type=\"submit\">Download</button></form>")
                .append("<p class=\"note\">The link works until ")
                .append(link.expiresAt)
                .append(" and locks after ")
                .append(links.triesLeft(link))
                .append(" more wrong passcodes.</p>");
        return document("Download a restored file", body.toString());
    }

    private static String document(String title, String body) {
        return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + HtmlUtils.htmlEscape(title) + "</title><style>"
                + "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}"
                + "input,button{font-size:1.1rem;padding:.4rem;margin:.3rem 0;display:block}"
                + ".error{color:#a00}.note{color:#555;font-size:.9rem}</style></head><body><h1>"
                + HtmlUtils.htmlEscape(title) + "</h1>" + body + "</body></html>";
    }

    private static ResponseEntity<StreamingResponseBody> html(int status, String html) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        return ResponseEntity.status(status)
                .header(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("Referrer-Policy", "no-referrer")
                .header("X-Frame-Options", "DENY")
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
                .header(HttpHeaders.CONTENT_LENGTH, String.valueOf(bytes.length))
                .body(out -> out.write(bytes));
    }
}
