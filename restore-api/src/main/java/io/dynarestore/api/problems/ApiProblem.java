package io.dynarestore.api.problems;

import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;
import java.util.Map;

/**
 * A request that cannot be served, with the HTTP status, a stable code, a detail that says what
 * is wrong and how to fix it, and the fields at fault. Rendered as RFC 9457 problem details.
 */
public class ApiProblem extends RuntimeException {

    private static final Map<RejectionCode, Integer> STATUS = Map.of(
            RejectionCode.INVALID_JSON, 400,
            RejectionCode.INVALID_REQUEST, 400,
            RejectionCode.BACKUP_NOT_FOUND, 422,
            RejectionCode.BACKUP_EXPIRED, 422,
            RejectionCode.TABLE_EXISTS, 409,
            RejectionCode.UNKNOWN_ACCOUNT, 422,
            RejectionCode.UNSUPPORTED, 422);

    private final int status;
    private final String code;
    private final List<FieldError> errors;

    public ApiProblem(int status, String code, String detail, List<FieldError> errors) {
        super(detail);
        this.status = status;
        this.code = code;
        this.errors = errors == null ? List.of() : errors;
    }

    /** The problem of a rejected request, with the status its code calls for. */
    public static ApiProblem rejected(RejectionCode code, String detail, List<FieldError> errors) {
        return new ApiProblem(STATUS.getOrDefault(code, 400), code.name(), detail, errors);
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
