package io.dynarestore.core.vault;

/** A data file could not be read for now (connection lost, S3 unavailable); reading it again may work. */
public class DataFileUnavailableException extends RuntimeException {
    public DataFileUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
