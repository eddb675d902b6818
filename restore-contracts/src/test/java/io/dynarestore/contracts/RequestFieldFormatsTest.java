package io.dynarestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The format keywords of the schemas (uri, email, date-time) and the text rules (no control or
 * invisible characters in what reaches logs and mail headers) are assertions: each malformed value
 * is refused naming its field, and its well-formed counterpart passes.
 */
class RequestFieldFormatsTest {

    static final String BASE = "{\"source\":{\"table\":\"orders\",%s},\"destination\":{\"type\":\"NEW_TABLE\"}%s}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "webhook with a space              | \"backupId\":\"b1\" | ,\"notify\":{\"webhooks\":[\"http://a b/\"]}              | /notify/webhooks/0",
                "webhook that is not a URL         | \"backupId\":\"b1\" | ,\"notify\":{\"webhooks\":[\"https://exa mple.com\"]}      | /notify/webhooks/0",
                "webhook of another scheme         | \"backupId\":\"b1\" | ,\"notify\":{\"webhooks\":[\"gopher://hooks.example.com/\"]} | /notify/webhooks/0",
                "email without a domain            | \"backupId\":\"b1\" | ,\"notify\":{\"emails\":[\"ops\"]}                           | /notify/emails/0",
                "email with a header break         | \"backupId\":\"b1\" | ,\"notify\":{\"emails\":[\"ops@example.com\\r\\nBcc: x@evil.example\"]} | /notify/emails/0",
                "email with two at signs           | \"backupId\":\"b1\" | ,\"notify\":{\"emails\":[\"a@b@example.com\"]}               | /notify/emails/0",
                "point in time that is no time     | \"pointInTime\":\"yesterday\" |                                                    | /source/pointInTime",
                "point in time of a 13th month     | \"pointInTime\":\"2026-13-01T00:00:00Z\" |                                         | /source/pointInTime",
                "point in time without a zone      | \"pointInTime\":\"2026-11-30T10:15:42\" |                                          | /source/pointInTime",
                "requester with a line break       | \"backupId\":\"b1\" | ,\"requestedBy\":\"ann\\r\\nINFO forged line\"               | /requestedBy",
                "requester with a bidi override    | \"backupId\":\"b1\" | ,\"requestedBy\":\"ann\\u202egnp.exe\"                       | /requestedBy",
                "empty requester                   | \"backupId\":\"b1\" | ,\"requestedBy\":\"\"                                         | /requestedBy",
                "snap id with a line break         | \"snapId\":\"s\\nx\" |                                                              | /source/snapId",
                "backup id with a slash            | \"backupId\":\"../b1\" |                                                            | /source/backupId",
                "occurredAt that is no time        | \"backupId\":\"b1\" | ,\"occurredAt\":\"noon\"                                     | /occurredAt",
            })
    void refusesAMalformedValueNamingItsField(String caseName, String source, String rest, String field) {
        List<FieldError> problems = Schemas.validate(
                "RestoreRequested", Json.mapper().readTree(BASE.formatted(source, rest == null ? "" : rest)));
        assertThat(problems).extracting(FieldError::field).contains(field);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "https webhook            | \"backupId\":\"b1\" | ,\"notify\":{\"webhooks\":[\"https://hooks.example.com/r?x=1\"]}",
                "encoded space in webhook | \"backupId\":\"b1\" | ,\"notify\":{\"webhooks\":[\"https://hooks.example.com/a%20b\"]}",
                "plain email              | \"backupId\":\"b1\" | ,\"notify\":{\"emails\":[\"ops+restores@example.com\"]}",
                "point in time            | \"pointInTime\":\"2026-11-30T10:15:42Z\" |",
                "point in time with zone  | \"pointInTime\":\"2026-11-30T11:15:42+01:00\" |",
                "latest                   | \"pointInTime\":\"latest\" |",
                "requester with accents   | \"backupId\":\"b1\" | ,\"requestedBy\":\"Zoë O'Neil (ops)\"",
                "snap id                  | \"snapId\":\"snap-2026-11-30.1\" |",
            })
    void takesTheWellFormedCounterpart(String caseName, String source, String rest) {
        assertThat(Schemas.validate(
                        "RestoreRequested", Json.mapper().readTree(BASE.formatted(source, rest == null ? "" : rest))))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "CancelRequested   | reason      | stop\\r\\nINFO forged",
                "CancelRequested   | requestedBy | bo\\u0000b",
                "RollbackRequested | reason      | undo\\u2028now",
                "RollbackRequested | requestedBy | \\u200bbob",
            })
    void refusesCommandTextThatCouldForgeALogLine(String type, String field, String value) {
        var json = Json.mapper()
                .readTree("{\"eventId\":\"e\",\"restoreId\":\"r-1\",\"type\":\"" + type
                        + "\",\"schemaVersion\":1,\"occurredAt\":\"2026-11-30T10:15:42Z\",\"" + field + "\":\"" + value
                        + "\"}");
        assertThat(Schemas.validate(type, json)).extracting(FieldError::field).contains("/" + field);
    }
}
