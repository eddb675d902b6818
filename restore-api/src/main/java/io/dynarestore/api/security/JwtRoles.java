package io.dynarestore.api.security;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.contracts.access.Role;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/**
 * A verified token's roles: the names in the configured claim (a list, or a string separated by
 * spaces or commas, as {@code scope} is), with the configured prefix dropped; names that are not
 * roles are ignored, so that a token may carry other scopes too.
 */
final class JwtRoles implements Converter<Jwt, AbstractAuthenticationToken> {

    private final ApiProperties.Jwt settings;

    JwtRoles(ApiProperties.Jwt settings) {
        this.settings = settings;
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        var authorities = new ArrayList<SimpleGrantedAuthority>();
        for (String name : names(jwt.getClaim(settings.rolesClaim()))) {
            String bare = name.startsWith(settings.rolePrefix())
                    ? name.substring(settings.rolePrefix().length())
                    : null;
            Role.parse(bare).ifPresent(r -> authorities.add(new SimpleGrantedAuthority(r.id())));
        }
        String principal = jwt.getClaimAsString(settings.principalClaim());
        return new JwtAuthenticationToken(jwt, authorities, principal == null ? jwt.getSubject() : principal);
    }

    private static List<String> names(Object claim) {
        if (claim instanceof Collection<?> c) {
            return c.stream().map(String::valueOf).toList();
        }
        if (claim instanceof String s) {
            return List.of(s.split("[\\s,]+"));
        }
        return List.of();
    }
}
