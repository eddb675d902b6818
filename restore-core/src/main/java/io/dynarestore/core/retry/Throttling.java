package io.dynarestore.core.retry;

import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Whether DynamoDB refused a call for capacity, so that it is worth sending again after a pause
 * (and slower): the SDK's own throttling test, and the error codes DynamoDB uses for it.
 */
public final class Throttling {

    private Throttling() {}

    public static boolean of(DynamoDbException e) {
        if (e.isThrottlingException()) {
            return true;
        }
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return "ProvisionedThroughputExceededException".equals(code)
                || "ThrottlingException".equals(code)
                || "RequestLimitExceeded".equals(code)
                || "LimitExceededException".equals(code);
    }
}
