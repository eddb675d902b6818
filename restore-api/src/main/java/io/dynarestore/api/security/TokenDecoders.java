package io.dynarestore.api.security;

import io.dynarestore.api.ApiProperties;
import java.util.List;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;

/**
 * The bearer tokens restore-api takes: signed with one of the pinned algorithms by a key of the
 * configured issuer, unexpired, with that issuer as {@code iss} and the configured audience in
 * {@code aud}. Without an issuer and an audience restore-api does not start in {@code jwt} mode:
 * any token of the identity provider, issued to any client, would otherwise be taken.
 */
final class TokenDecoders {

    private TokenDecoders() {}

    static JwtDecoder of(ApiProperties.Jwt jwt) {
        if (blank(jwt.issuer()) || blank(jwt.audience())) {
            throw new IllegalStateException("api.security.mode is jwt, but api.security.jwt."
                    + (blank(jwt.issuer()) ? "issuer" : "audience") + " is not set: set api.security.jwt.issuer to the "
                    + "identity provider's issuer (the iss of its tokens) and api.security.jwt.audience to the audience "
                    + "it gives restore-api's tokens (their aud), or use api.security.mode=api-key");
        }
        List<SignatureAlgorithm> algorithms = jwt.algorithms().stream()
                .map(name -> {
                    SignatureAlgorithm a = SignatureAlgorithm.from(name.trim());
                    if (a == null) {
                        throw new IllegalStateException("api.security.jwt.algorithms names '" + name
                                + "', which is not a JWS " + "signature algorithm (RS256, ES256, PS256, ...)");
                    }
                    return a;
                })
                .toList();
        OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(
                JwtValidators.createDefaultWithIssuer(jwt.issuer()),
                new JwtClaimValidator<List<String>>(
                        JwtClaimNames.AUD, aud -> aud != null && aud.contains(jwt.audience())));
        // keys are fetched on first use, so that restore-api starts while the issuer is away
        return new SupplierJwtDecoder(() -> {
            NimbusJwtDecoder decoder = (blank(jwt.jwkSetUri())
                            ? NimbusJwtDecoder.withIssuerLocation(jwt.issuer()).jwsAlgorithms(a -> a.addAll(algorithms))
                            : NimbusJwtDecoder.withJwkSetUri(jwt.jwkSetUri()).jwsAlgorithms(a -> a.addAll(algorithms)))
                    .build();
            decoder.setJwtValidator(validator);
            return decoder;
        });
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
