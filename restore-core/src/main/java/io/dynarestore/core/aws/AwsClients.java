package io.dynarestore.core.aws;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * Builds and caches the AWS clients of a service: one S3 client for the vault, and one DynamoDB
 * client per registered account and region. An account or region outside the registry is
 * refused with {@link UnknownAccountException}, so a request cannot reach arbitrary endpoints.
 * An account with a role is reached with that role's temporary credentials, assumed through STS
 * with the account's ExternalId ({@link ExternalIds}) and refreshed before they expire; a region
 * of an account is reached at its own endpoint.
 */
public final class AwsClients implements AutoCloseable {

    private final AwsSettings settings;
    private final int dynamoAttempts;
    private final AwsCredentialsProvider credentials;
    private final Map<String, DynamoDbClient> dynamo = new ConcurrentHashMap<>();
    private final Map<String, DynamoDbStreamsClient> streams = new ConcurrentHashMap<>();
    private final Map<String, AwsCredentialsProvider> accountCredentials = new ConcurrentHashMap<>();
    private volatile S3Client s3;
    private volatile StsClient sts;

    public AwsClients(AwsSettings settings) {
        this(settings, 0);
    }

    /**
     * @param dynamoAttempts attempts the SDK makes per DynamoDB call before it reports the failure;
     *                       0 for the SDK's default. Item-writers keep it low: they retry themselves,
     *                       paced by the write budget, and must see throttling to slow down.
     */
    public AwsClients(AwsSettings settings, int dynamoAttempts) {
        this.dynamoAttempts = dynamoAttempts;
        this.settings = settings;
        this.credentials = settings.credentials() == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        settings.credentials().accessKeyId(),
                        settings.credentials().secretAccessKey()));
    }

    public AwsSettings settings() {
        return settings;
    }

    public String defaultAccount() {
        return settings.defaultAccount();
    }

    public String defaultRegion() {
        return settings.defaultRegion();
    }

    public S3Client s3() {
        S3Client client = s3;
        if (client == null) {
            synchronized (this) {
                if (s3 == null) {
                    s3 = buildS3();
                }
                client = s3;
            }
        }
        return client;
    }

    private S3Client buildS3() {
        AwsSettings.S3 cfg = settings.s3();
        var builder = S3Client.builder()
                .credentialsProvider(credentials)
                .region(Region.of(cfg != null && cfg.region() != null ? cfg.region() : settings.defaultRegion()))
                .httpClientBuilder(ApacheHttpClient.builder()
                        .maxConnections(64)
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(60)));
        if (cfg != null && cfg.endpoint() != null) {
            // S3 stand-ins (S3Proxy) need path-style URLs and no trailing checksums
            builder.endpointOverride(cfg.endpoint())
                    .forcePathStyle(cfg.pathStyle())
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        return builder.build();
    }

    /** Whether the registry allows this account and region. */
    public boolean allows(String account, String region) {
        return findRegion(account, region) != null;
    }

    /** The DynamoDB client for a registered account and region. */
    public DynamoDbClient dynamo(String account, String region) {
        AwsSettings.Region r = findRegion(account, region);
        if (r == null) {
            throw new UnknownAccountException(account, region, settings.accounts());
        }
        return dynamo.computeIfAbsent(account + "/" + region, k -> {
            var builder = DynamoDbClient.builder()
                    .credentialsProvider(credentialsOf(account))
                    .region(Region.of(region))
                    .httpClientBuilder(ApacheHttpClient.builder()
                            .maxConnections(64)
                            .connectionTimeout(Duration.ofSeconds(5))
                            .socketTimeout(Duration.ofSeconds(30)));
            if (r.dynamodbEndpoint() != null) {
                builder.endpointOverride(r.dynamodbEndpoint());
            }
            if (dynamoAttempts > 0) {
                builder.overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(dynamoAttempts)
                        .build()));
            }
            return builder.build();
        });
    }

    /**
     * The DynamoDB Streams client for a registered account and region, made for change-log captures:
     * its GetRecords records carry no images, which {@link StreamRecordBodies#take()} hands over as bytes.
     */
    public DynamoDbStreamsClient streams(String account, String region) {
        AwsSettings.Region r = findRegion(account, region);
        if (r == null) {
            throw new UnknownAccountException(account, region, settings.accounts());
        }
        return streams.computeIfAbsent(account + "/" + region, k -> {
            var builder = DynamoDbStreamsClient.builder()
                    .credentialsProvider(credentialsOf(account))
                    .region(Region.of(region))
                    // a capture takes the records' images as sent instead of encoding them again
                    .overrideConfiguration(c -> c.addExecutionInterceptor(StreamRecordBodies.INTERCEPTOR))
                    .httpClientBuilder(ApacheHttpClient.builder()
                            .maxConnections(16)
                            .connectionTimeout(Duration.ofSeconds(5))
                            .socketTimeout(Duration.ofSeconds(30)));
            if (r.streamsCalls() != null) {
                builder.endpointOverride(r.streamsCalls());
            }
            return builder.build();
        });
    }

    /** The region entry of the registry, or {@code null} when the account or region is not registered. */
    public AwsSettings.Region region(String account, String region) {
        return findRegion(account, region);
    }

    /**
     * Makes sure this service can act in {@code account}: for an account with a role, assumes it
     * now (credentials are cached until shortly before they expire).
     *
     * @throws AccountAccessException when STS refuses, with the role, the ExternalId and the fix
     */
    public void verifyAccess(String account) {
        AwsSettings.Account a = findAccount(account);
        if (a == null || a.roleArn() == null) {
            return;
        }
        try {
            credentialsOf(account).resolveCredentials();
        } catch (RuntimeException e) {
            throw AccountAccessException.of(a, ExternalIds.forAccount(settings, a), e);
        }
    }

    private AwsCredentialsProvider credentialsOf(String account) {
        AwsSettings.Account a = findAccount(account);
        if (a == null || a.roleArn() == null) {
            return credentials;
        }
        return accountCredentials.computeIfAbsent(
                account,
                k -> StsAssumeRoleCredentialsProvider.builder()
                        .stsClient(sts())
                        .refreshRequest(r -> r.roleArn(a.roleArn())
                                .externalId(ExternalIds.forAccount(settings, a))
                                .roleSessionName("dynarestore")
                                .durationSeconds(3600))
                        .asyncCredentialUpdateEnabled(false)
                        .build());
    }

    private StsClient sts() {
        StsClient client = sts;
        if (client == null) {
            synchronized (this) {
                if (sts == null) {
                    AwsSettings.Sts cfg = settings.sts();
                    var builder = StsClient.builder()
                            .credentialsProvider(credentials)
                            .region(Region.of(
                                    cfg != null && cfg.region() != null ? cfg.region() : settings.defaultRegion()))
                            .httpClientBuilder(ApacheHttpClient.builder()
                                    .connectionTimeout(Duration.ofSeconds(5))
                                    .socketTimeout(Duration.ofSeconds(30)));
                    if (cfg != null && cfg.endpoint() != null) {
                        builder.endpointOverride(cfg.endpoint());
                    }
                    sts = builder.build();
                }
                client = sts;
            }
        }
        return client;
    }

    private AwsSettings.Account findAccount(String account) {
        for (AwsSettings.Account a : settings.accounts()) {
            if (a.id().equals(account)) {
                return a;
            }
        }
        return null;
    }

    private AwsSettings.Region findRegion(String account, String region) {
        for (AwsSettings.Account a : settings.accounts()) {
            if (a.id().equals(account) && a.regions() != null && a.regions().containsKey(region)) {
                AwsSettings.Region r = a.regions().get(region);
                return r == null ? new AwsSettings.Region(null, null, null, null, null) : r;
            }
        }
        return null;
    }

    @Override
    public void close() {
        dynamo.values().forEach(DynamoDbClient::close);
        streams.values().forEach(DynamoDbStreamsClient::close);
        accountCredentials.values().forEach(p -> {
            if (p instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing
                }
            }
        });
        if (sts != null) {
            sts.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }
}
