package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * restore-api as production runs it: OAuth2 bearer tokens, verified against the issuer's keys
 * (a JWKS served here), with the roles in the token's {@code roles} claim.
 */
class JwtAuthIT {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static RestoreStack stack;
    static HttpServer issuer;
    static RSAKey key;
    static RSAKey strangerKey;

    @BeforeAll
    static void start() throws Exception {
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        strangerKey = new RSAKeyGenerator(2048).keyID("k1").generate();
        issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] jwks = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        issuer.createContext("/jwks", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, jwks.length);
            exchange.getResponseBody().write(jwks);
            exchange.close();
        });
        issuer.start();
        stack = RestoreStack.infrastructure();
        stack.startApi("--api.security.mode=jwt", "--spring.security.oauth2.resourceserver.jwt.jwk-set-uri="
                + "http://127.0.0.1:" + issuer.getAddress().getPort() + "/jwks");
    }

    @AfterAll
    static void stop() {
        stack.close();
        issuer.stop(0);
    }

    @Test
    void asksForABearerTokenWhenThereIsNone() throws Exception {
        var response = get("/restores", null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
        assertThat(response.body()).contains("Authorization: Bearer");
    }

    @Test
    void letsATokenDoWhatItsRolesAllowAndNoMore() throws Exception {
        // Given a valid token of a reader
        String reader = token(key, "ana", List.of("read"), Instant.now().plusSeconds(300));

        // Then it reads the tasks, and may not start a restore
        assertThat(get("/restores", reader).statusCode()).isEqualTo(200);
        var refused = post("/restores", reader);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("restore").contains("'ana'");

        // and a token with restore (besides roles this service does not know) passes on to validation
        String restorer = token(key, "bo", List.of("restore", "billing-admin"), Instant.now().plusSeconds(300));
        var validated = post("/restores", restorer);
        assertThat(validated.statusCode()).as(validated.body()).isEqualTo(422);
        assertThat(validated.body()).contains("BACKUP_NOT_FOUND");
    }

    @Test
    void refusesExpiredTokensAndTokensSignedByAnotherKey() throws Exception {
        String expired = token(key, "ana", List.of("read"), Instant.now().minusSeconds(600));
        String forged = token(strangerKey, "mallory", List.of("read", "restore"), Instant.now().plusSeconds(300));
        var late = get("/restores", expired);
        assertThat(late.statusCode()).isEqualTo(401);
        assertThat(late.body()).contains("refused");
        assertThat(get("/restores", forged).statusCode()).isEqualTo(401);
        assertThat(get("/restores", "not-a-jwt").statusCode()).isEqualTo(401);
    }

    static String token(RSAKey signer, String subject, List<String> roles, Instant expires) throws Exception {
        var claims = new JWTClaimsSet.Builder().subject(subject).claim("roles", roles)
                .issueTime(Date.from(expires.minusSeconds(900))).expirationTime(Date.from(expires)).build();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID())
                .type(JOSEObjectType.JWT).build(), claims);
        jwt.sign(new RSASSASigner(signer));
        return jwt.serialize();
    }

    static HttpResponse<String> get(String path, String token) throws Exception {
        var builder = HttpRequest.newBuilder(stack.apiUri(path)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String path, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(stack.apiUri(path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"source\":{\"table\":\"orders\",\"backupId\":\"none\"},"
                        + "\"destination\":{\"type\":\"NEW_TABLE\"}}")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
