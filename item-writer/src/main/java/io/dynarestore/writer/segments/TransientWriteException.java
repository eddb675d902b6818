package io.dynarestore.writer.segments;

/** Writing can succeed later (throttling, an unreachable service): the segment is started over later. */
class TransientWriteException extends RuntimeException {
    TransientWriteException(String message) {
        super(message);
    }

    TransientWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
