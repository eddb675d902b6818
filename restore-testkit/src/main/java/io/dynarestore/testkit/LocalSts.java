package io.dynarestore.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for AWS STS's AssumeRole (query protocol), since no local server enforces role trust
 * policies: each role is registered with the ExternalId its trust policy demands; AssumeRole with
 * that ExternalId returns fresh temporary credentials, any other is refused with AccessDenied as
 * STS refuses it. {@link #issuedAccessKeys()} lists what it handed out, so a
 * {@link RecordingDynamo} can accept exactly those.
 */
public final class LocalSts implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, String> trust = new ConcurrentHashMap<>();
    private final Set<String> issued = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private final Map<String, String> presented = new ConcurrentHashMap<>();

    private LocalSts() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public static LocalSts start() {
        try {
            return new LocalSts();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Registers a role whose trust policy demands {@code externalId}. */
    public LocalSts role(String roleArn, String externalId) {
        trust.put(roleArn, externalId);
        return this;
    }

    /** The access key ids of every credential issued so far. */
    public Set<String> issuedAccessKeys() {
        return Set.copyOf(issued);
    }

    /** The ExternalId last presented for each role. */
    public Map<String, String> presentedExternalIds() {
        return Map.copyOf(presented);
    }

    /** How many AssumeRole calls were refused. */
    public int refused() {
        return refused.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> form =
                    form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            if (!"AssumeRole".equals(form.get("Action"))) {
                error(exchange, 400, "InvalidAction", "Could not find operation " + form.get("Action"));
                return;
            }
            String role = form.get("RoleArn");
            String demanded = trust.get(role);
            if (role != null && form.get("ExternalId") != null) {
                presented.put(role, form.get("ExternalId"));
            }
            if (demanded == null || !demanded.equals(form.get("ExternalId"))) {
                refused.incrementAndGet();
                error(
                        exchange,
                        403,
                        "AccessDenied",
                        "User: arn:aws:iam::000000000000:user/dynarestore is not "
                                + "authorized to perform: sts:AssumeRole on resource: " + role);
                return;
            }
            String accessKey = "ASIA"
                    + UUID.randomUUID()
                            .toString()
                            .replace("-", "")
                            .substring(0, 16)
                            .toUpperCase();
            issued.add(accessKey);
            String expiration = Instant.now()
                    .plus(1, ChronoUnit.HOURS)
                    .truncatedTo(ChronoUnit.SECONDS)
                    .toString();
            String session = form.getOrDefault("RoleSessionName", "session");
            String xml = "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><AssumeRoleResult>"
                    + "<Credentials><AccessKeyId>" + accessKey + "</AccessKeyId><SecretAccessKey>"
                    + UUID.randomUUID() + "</SecretAccessKey><SessionToken>" + UUID.randomUUID()
                    + "</SessionToken><Expiration>" + expiration + "</Expiration></Credentials>"
                    + "<AssumedRoleUser><Arn>"
                    + role.replace(":role/", ":assumed-role/").replace(":iam:", ":sts:")
                    + "/" + session + "</Arn><AssumedRoleId>AROA0000000000000000:" + session + "</AssumedRoleId>"
                    + "</AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>" + UUID.randomUUID()
                    + "</RequestId></ResponseMetadata></AssumeRoleResponse>";
            send(exchange, 200, xml);
        }
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        send(
                exchange,
                status,
                "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error>"
                        + "<Type>Sender</Type><Code>" + code + "</Code><Message>" + message
                        + "</Message></Error><RequestId>"
                        + UUID.randomUUID() + "</RequestId></ErrorResponse>");
    }

    private static void send(HttpExchange exchange, int status, String xml) throws IOException {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/xml");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> form(String body) {
        var map = new HashMap<String, String>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return map;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
