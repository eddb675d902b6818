package io.dynarestore.core.filter;

import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;
import java.util.stream.Collectors;

/** Filters that cannot be applied; each problem names the filter (a JSON pointer) and the fix. */
public class InvalidFilterException extends RuntimeException {

    private final List<FieldError> errors;

    public InvalidFilterException(List<FieldError> errors) {
        super(errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
