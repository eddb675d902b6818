package io.dynarestore.core.aws;

import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** This installation cannot act in an account: STS refused to let it assume the account's role. */
public class AccountAccessException extends RuntimeException {

    private AccountAccessException(String message, Throwable cause) {
        super(message, cause);
    }

    static AccountAccessException of(AwsSettings.Account account, String externalId, Throwable cause) {
        String why = cause.getMessage();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof AwsServiceException aws && aws.awsErrorDetails() != null) {
                why = aws.awsErrorDetails().errorCode() + ": "
                        + aws.awsErrorDetails().errorMessage();
                break;
            }
        }
        return new AccountAccessException(
                "Could not assume role " + account.roleArn() + " of account "
                        + account.id() + " with ExternalId " + externalId + " (" + why
                        + "). Make the role's trust policy "
                        + "allow this installation to assume it with the condition sts:ExternalId = " + externalId
                        + " (GET /accounts lists each account's ExternalId).",
                cause);
    }
}
