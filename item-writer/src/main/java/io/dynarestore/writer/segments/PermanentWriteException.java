package io.dynarestore.writer.segments;

/** Writing cannot succeed (missing table, corrupt file, invalid item): the segment fails. */
class PermanentWriteException extends RuntimeException {
    PermanentWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
