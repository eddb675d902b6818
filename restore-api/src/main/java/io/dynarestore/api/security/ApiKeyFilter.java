package io.dynarestore.api.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates a request that carries {@code X-Api-Key}; a key that is not known is answered
 * 401 at once rather than treated as no key, so that a typo is not mistaken for a missing role.
 */
final class ApiKeyFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Api-Key";

    private final ApiKeys keys;
    private final ProblemResponses problems;

    ApiKeyFilter(ApiKeys keys, ProblemResponses problems) {
        this.keys = keys;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(HEADER);
        if (presented == null || presented.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        var holder = keys.holderOf(presented);
        if (holder.isEmpty()) {
            problems.write(
                    response,
                    401,
                    "UNAUTHENTICATED",
                    "The API key in " + HEADER + " is not known; check it "
                            + "for typos, or ask an administrator for a key");
            return;
        }
        var context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                holder.get().name(), null, holder.get().authorities()));
        SecurityContextHolder.setContext(context);
        try {
            chain.doFilter(request, response);
        } finally {
            SecurityContextHolder.clearContext();
        }
    }
}
