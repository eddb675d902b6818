package io.dynarestore.testkit;

import java.net.URI;
import java.nio.file.Path;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy, a real S3-API server that checks SigV4 signatures, in this JVM: in memory
 * ({@code transient}) or on disk ({@code filesystem}). Path-style; the bucket is created at start.
 */
public final class S3Server implements AutoCloseable {

    public static final String ACCESS_KEY = "local-access-key";
    public static final String SECRET_KEY = "local-secret-key";

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    private final int port;
    private S3Client client;

    private S3Server(S3Proxy proxy, BlobStoreContext context, int port) {
        this.proxy = proxy;
        this.context = context;
        this.port = port;
    }

    /** An in-memory S3 on a free port with {@code bucket} created, checking SigV4 signatures. */
    public static S3Server start(String bucket) {
        return start(Ports.free(), null, bucket, true);
    }

    /**
     * S3 on {@code port}; files under {@code dataDir}, or in memory when it is {@code null}.
     * With {@code checkSignatures} only {@link #ACCESS_KEY}/{@link #SECRET_KEY} are accepted;
     * without, any credentials are (as the local stack offers it to the user's own tools).
     */
    public static S3Server start(int port, Path dataDir, String bucket, boolean checkSignatures) {
        var overrides = new Properties();
        String provider = dataDir == null ? "transient" : "filesystem";
        if (dataDir != null) {
            overrides.setProperty(
                    "jclouds.filesystem.basedir", dataDir.toAbsolutePath().toString());
        }
        BlobStoreContext context = ContextBuilder.newBuilder(provider)
                .credentials("identity", "credential")
                .overrides(overrides)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(
                        checkSignatures ? AuthenticationType.AWS_V2_OR_V4 : AuthenticationType.NONE,
                        ACCESS_KEY,
                        SECRET_KEY)
                .ignoreUnknownHeaders(true)
                .build();
        try {
            proxy.start();
            while (!"STARTED".equals(proxy.getState())) {
                Thread.sleep(5);
            }
        } catch (Exception e) {
            context.close();
            throw new IllegalStateException("could not start S3Proxy on port " + port, e);
        }
        if (!context.getBlobStore().containerExists(bucket)) {
            context.getBlobStore().createContainerInLocation(null, bucket);
        }
        return new S3Server(proxy, context, port);
    }

    public int port() {
        return port;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public synchronized S3Client client() {
        if (client == null) {
            client = client(endpoint());
        }
        return client;
    }

    public static S3Client client(URI endpoint) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(32))
                .build();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        try {
            proxy.stop();
        } catch (Exception ignored) {
            // stopping a test server
        }
        context.close();
    }
}
