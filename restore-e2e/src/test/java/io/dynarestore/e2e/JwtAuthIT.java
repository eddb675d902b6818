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
 * (a JWKS served here), taken only from the configured issuer, for the configured audience and with
 * the pinned algorithm, with the roles in the token's {@code roles} claim under the product's prefix.
 */
class JwtAuthIT {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static RestoreStack stack;
    static HttpServer issuer;
    static RSAKey key;
    static RSAKey strangerKey;
    static final String ISSUER = "https://login.example.com/";
    static final String AUDIENCE = "dynarestore";

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
        stack.startApi(
                "--api.security.mode=jwt",
                "--api.security.jwt.issuer=" + ISSUER,
                "--api.security.jwt.audience=" + AUDIENCE,
                "--api.security.jwt.jwk-set-uri=" + "http://127.0.0.1:"
                        + issuer.getAddress().getPort() + "/jwks");
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
        String reader =
                token(key, "ana", List.of("dynarestore:read"), Instant.now().plusSeconds(300));

        // Then it reads the tasks, and may not start a restore
        assertThat(get("/restores", reader).statusCode()).isEqualTo(200);
        var refused = post("/restores", reader);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("restore").contains("'ana'");

        // and a token with restore (besides roles this service does not know) passes on to validation
        String restorer = token(
                key,
                "bo",
                List.of("dynarestore:restore", "billing-admin"),
                Instant.now().plusSeconds(300));
        var validated = post("/restores", restorer);
        assertThat(validated.statusCode()).as(validated.body()).isEqualTo(422);
        assertThat(validated.body()).contains("BACKUP_NOT_FOUND");
    }

    @Test
    void refusesExpiredTokensAndTokensSignedByAnotherKey() throws Exception {
        String expired =
                token(key, "ana", List.of("dynarestore:read"), Instant.now().minusSeconds(600));
        String forged = token(
                strangerKey,
                "mallory",
                List.of("dynarestore:read", "dynarestore:restore"),
                Instant.now().plusSeconds(300));
        var late = get("/restores", expired);
        assertThat(late.statusCode()).isEqualTo(401);
        assertThat(late.body()).contains("refused");
        assertThat(get("/restores", forged).statusCode()).isEqualTo(401);
        assertThat(get("/restores", "not-a-jwt").statusCode()).isEqualTo(401);
    }

    @Test
    void refusesATokenOfAnotherIssuerOrIssuedToAnotherAudience() throws Exception {
        // Given tokens signed by the right key, one from another issuer, one for another client, one for none
        Instant later = Instant.now().plusSeconds(300);
        String otherIssuer =
                token(key, "https://evil.example.com/", AUDIENCE, "ana", List.of("dynarestore:read"), later);
        String otherAudience = token(key, ISSUER, "billing-portal", "ana", List.of("dynarestore:read"), later);
        String noAudience = token(key, ISSUER, null, "ana", List.of("dynarestore:read"), later);

        // Then none of them is taken
        assertThat(get("/restores", otherIssuer).statusCode()).isEqualTo(401);
        assertThat(get("/restores", otherAudience).statusCode()).isEqualTo(401);
        assertThat(get("/restores", noAudience).statusCode()).isEqualTo(401);
    }

    @Test
    void takesNoUnprefixedRoleThatAnotherClientsScopeMightCarry() throws Exception {
        String generic =
                token(key, "ana", List.of("read", "restore"), Instant.now().plusSeconds(300));
        var response = get("/restores", generic);
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("read");
    }

    @Test
    void refusesATokenSignedWithAnAlgorithmItDidNotPin() throws Exception {
        // Given a token signed with HMAC, using the issuer's public key as the secret (algorithm confusion)
        var claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject("mallory")
                .claim("roles", List.of("dynarestore:read"))
                .expirationTime(Date.from(Instant.now().plusSeconds(300)))
                .build();
        var jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims);
        jwt.sign(new com.nimbusds.jose.crypto.MACSigner(java.security.MessageDigest.getInstance("SHA-256")
                .digest(key.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8))));

        // Then it is refused
        assertThat(get("/restores", jwt.serialize()).statusCode()).isEqualTo(401);
    }

    @Test
    void refusesToStartInJwtModeWithoutAnIssuerOrAnAudience() {
        for (String missing : List.of("audience", "issuer")) {
            var args = new java.util.ArrayList<>(stack.arguments());
            args.add("--api.security.mode=jwt");
            if (!missing.equals("issuer")) {
                args.add("--api.security.jwt.issuer=" + ISSUER);
            }
            if (!missing.equals("audience")) {
                args.add("--api.security.jwt.audience=" + AUDIENCE);
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Applications.close(
                            Applications.run(io.dynarestore.api.ApiApplication.builder(), args.toArray(new String[0]))))
                    .hasStackTraceContaining("api.security.jwt." + missing + " is not set");
        }
    }

    static String token(RSAKey signer, String subject, List<String> roles, Instant expires) throws Exception {
        return token(signer, ISSUER, AUDIENCE, subject, roles, expires);
    }

    static String token(RSAKey signer, String iss, String aud, String subject, List<String> roles, Instant expires)
            throws Exception {
        var builder = new JWTClaimsSet.Builder()
                .issuer(iss)
                .subject(subject)
                .claim("roles", roles)
                .issueTime(Date.from(expires.minusSeconds(900)))
                .expirationTime(Date.from(expires));
        if (aud != null) {
            builder.audience(aud);
        }
        var claims = builder.build();
        var jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(signer.getKeyID())
                        .type(JOSEObjectType.JWT)
                        .build(),
                claims);
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
        return HTTP.send(
                HttpRequest.newBuilder(stack.apiUri(path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"source\":{\"table\":\"orders\",\"backupId\":\"none\"},"
                                        + "\"destination\":{\"type\":\"NEW_TABLE\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
