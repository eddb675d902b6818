package io.dynarestore.api.problems;

import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;

/**
 * A request that cannot be served, with the HTTP status, a stable code, a detail that says what
 * is wrong and how to fix it, and the fields at fault. Rendered as RFC 9457 problem details.
 */
public class ApiProblem extends RuntimeException {

    private final int status;
    private final String code;
    private final List<FieldError> errors;
    private Long retryAfterSeconds;

    public ApiProblem(int status, String code, String detail, List<FieldError> errors) {
        super(detail);
        this.status = status;
        this.code = code;
        this.errors = errors == null ? List.of() : errors;
    }

    /** The problem of a rejected request, with the status its code calls for. */
    public static ApiProblem rejected(RejectionCode code, String detail, List<FieldError> errors) {
        return new ApiProblem(status(code), code.name(), detail, errors);
    }

    /** 400 for a malformed request, 409 when the world conflicts with it, 422 when it cannot be served. */
    static int status(RejectionCode code) {
        return switch (code) {
            case INVALID_JSON, INVALID_REQUEST, INVALID_FILTER -> 400;
            case TABLE_EXISTS, TABLE_NOT_EMPTY -> 409;
            case FORBIDDEN -> 403;
            case BACKUP_NOT_FOUND,
                    BACKUP_EXPIRED,
                    POINT_NOT_RESTORABLE,
                    TABLE_NOT_FOUND,
                    KEY_SCHEMA_MISMATCH,
                    UNKNOWN_ACCOUNT,
                    ACCESS_DENIED,
                    UNSUPPORTED -> 422;
        };
    }

    /** This problem, answered with {@code Retry-After: seconds}. */
    public ApiProblem retryAfter(long seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
