package io.dynarestore.core.codec;

/** DynamoDB JSON that does not follow the format; the message says where and why. */
public class DynamoJsonException extends RuntimeException {
    public DynamoJsonException(String message) {
        super(message);
    }

    public DynamoJsonException(String message, Throwable cause) {
        super(message, cause);
    }
}
