package io.dynarestore.api.security;

import io.dynarestore.api.ApiProperties;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * 401 and 403 as RFC 9457 problem details like every other error of the API, saying how to
 * authenticate (the header of the configured mode) or which roles the endpoint takes.
 */
final class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ApiProperties.Security.Mode mode;

    ProblemResponses(ApiProperties.Security.Mode mode) {
        this.mode = mode;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        if (mode == ApiProperties.Security.Mode.JWT) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        String how = mode == ApiProperties.Security.Mode.JWT
                ? "send an OAuth2 access token as 'Authorization: Bearer <token>'"
                : "send an API key in the " + ApiKeyFilter.HEADER + " header";
        String detail = request.getHeader("Authorization") != null && mode == ApiProperties.Security.Mode.JWT
                ? "The bearer token was refused (" + e.getMessage() + "); get a new token and " + how
                : "This endpoint needs an authenticated caller; " + how;
        write(response, 401, "UNAUTHENTICATED", detail);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
            throws IOException {
        write(
                response,
                403,
                "FORBIDDEN",
                Callers.forbidden(
                        request.getMethod() + " " + request.getRequestURI(), EndpointRules.describe(request)));
    }

    void write(HttpServletResponse response, int status, String code, String detail) throws IOException {
        var body = new LinkedHashMap<String, Object>();
        body.put(
                "type",
                "https://dynarestore.io/problems/"
                        + code.toLowerCase(Locale.ROOT).replace('_', '-'));
        body.put("title", status == 401 ? "Unauthenticated" : "Forbidden");
        body.put("status", status);
        body.put("detail", detail);
        body.put("code", code);
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.getOutputStream().write(JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8));
    }
}
