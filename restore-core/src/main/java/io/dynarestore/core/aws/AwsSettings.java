package io.dynarestore.core.aws;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * How the services reach AWS (or the local stand-ins): the vault's S3, and the registry of
 * accounts and regions that restores may read from and write to.
 *
 * @param defaultAccount account used when a request names none
 * @param defaultRegion  region used when a request names none
 * @param credentials    static keys; {@code null} uses the default provider chain (IRSA, env, ...)
 * @param s3             the vault's S3 endpoint
 * @param accounts       the accounts restores may use, with their regions and endpoints
 */
public record AwsSettings(String defaultAccount, String defaultRegion, Credentials credentials, S3 s3,
                          List<Account> accounts) {

    public AwsSettings {
        accounts = accounts == null ? List.of() : List.copyOf(accounts);
    }

    /** Static credentials (local stand-ins accept any). */
    public record Credentials(String accessKeyId, String secretAccessKey) {
    }

    /**
     * @param endpoint  {@code null} for AWS; a URL for S3Proxy or another S3 API
     * @param region    the bucket's region
     * @param pathStyle path-style addressing, which local S3 servers need
     */
    public record S3(URI endpoint, String region, boolean pathStyle) {
    }

    /**
     * An account restores may use.
     *
     * @param roleArn    role to assume in it, or {@code null} to use the services' own credentials
     * @param externalId the ExternalId the role's trust policy demands
     * @param regions    the regions allowed, each with an optional DynamoDB endpoint override
     */
    public record Account(String id, String roleArn, String externalId, Map<String, Region> regions) {
    }

    /** @param dynamodbEndpoint {@code null} for AWS; a URL for dynalite or another DynamoDB API */
    public record Region(URI dynamodbEndpoint) {
    }
}
