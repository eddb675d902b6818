package io.dynarestore.core.vault;

/** A data file that cannot be trusted: wrong checksum, truncated, or not DynamoDB JSON. */
public class CorruptDataFileException extends RuntimeException {
    public CorruptDataFileException(String message) {
        super(message);
    }

    public CorruptDataFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
