package io.dynarestore.core.aws;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * How the services reach AWS (or the local stand-ins): the vault's S3, STS, and the registry of
 * accounts and regions that restores may read from and write to.
 *
 * @param defaultAccount   account used when a request names none
 * @param defaultRegion    region used when a request names none
 * @param credentials      static keys; {@code null} uses the default provider chain (IRSA, env, ...)
 * @param s3               the vault's S3 endpoint
 * @param sts              the STS endpoint used to assume accounts' roles; {@code null} for AWS's
 * @param externalIdSecret secret from which the ExternalId of each account is derived (see
 *                         {@link ExternalIds}); needed when an account has a role and no ExternalId
 * @param accounts         the accounts restores may use, with their regions and endpoints
 */
public record AwsSettings(
        String defaultAccount,
        String defaultRegion,
        Credentials credentials,
        S3 s3,
        Sts sts,
        String externalIdSecret,
        List<Account> accounts) {

    public AwsSettings {
        accounts = accounts == null ? List.of() : List.copyOf(accounts);
    }

    /** Static credentials (local stand-ins accept any). */
    public record Credentials(String accessKeyId, String secretAccessKey) {}

    /**
     * @param endpoint  {@code null} for AWS; a URL for S3Proxy or another S3 API
     * @param region    the bucket's region
     * @param pathStyle path-style addressing, which local S3 servers need
     */
    public record S3(URI endpoint, String region, boolean pathStyle) {}

    /**
     * @param endpoint {@code null} for AWS's regional STS endpoint
     * @param region   the region of the STS endpoint; {@code null} for the default region
     */
    public record Sts(URI endpoint, String region) {}

    /**
     * An account restores may use.
     *
     * @param roleArn    role to assume in it, or {@code null} to use the services' own credentials
     * @param externalId the ExternalId the role's trust policy demands; {@code null} to use the one
     *                   this installation generates for the account
     * @param regions    the regions allowed, each with an optional DynamoDB endpoint override
     */
    public record Account(String id, String roleArn, String externalId, Map<String, Region> regions) {}

    /**
     * A region of an account.
     *
     * @param dynamodbEndpoint {@code null} for AWS; a URL for dynalite or another DynamoDB API
     * @param importTable      whether the endpoint implements ImportTable; {@code null}: only AWS does
     * @param nativeBackups    whether it implements RestoreTableFromBackup; {@code null}: only AWS does
     * @param enforcedCapacity whether it enforces provisioned capacity (throttles beyond it); {@code null}:
     *                         only AWS does. Where it does not (dynalite), writers budget a provisioned
     *                         table like an on-demand one, since its WCU mean nothing there.
     * @param streamsEndpoint  the DynamoDB Streams endpoint; {@code null}: AWS's, or the DynamoDB
     *                         endpoint when that is set (a local stand-in answers both APIs)
     */
    public record Region(
            URI dynamodbEndpoint,
            Boolean importTable,
            Boolean nativeBackups,
            Boolean enforcedCapacity,
            URI streamsEndpoint) {

        /** Where DynamoDB Streams calls go, or {@code null} for AWS's regional endpoint. */
        public URI streamsCalls() {
            return streamsEndpoint != null ? streamsEndpoint : dynamodbEndpoint;
        }

        public boolean enforcesCapacity() {
            return enforcedCapacity != null ? enforcedCapacity : dynamodbEndpoint == null;
        }

        // one constructor only: Spring binds configuration through it

        public boolean supportsImportTable() {
            return importTable != null ? importTable : dynamodbEndpoint == null;
        }

        public boolean supportsNativeBackups() {
            return nativeBackups != null ? nativeBackups : dynamodbEndpoint == null;
        }
    }
}
