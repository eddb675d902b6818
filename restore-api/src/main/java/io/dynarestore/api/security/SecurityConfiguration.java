package io.dynarestore.api.security;

import io.dynarestore.api.ApiProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.header.HeaderWriterFilter;

/**
 * Stateless authentication by the configured mode (bearer JWT or API key; no sessions, no
 * cookies, hence no CSRF token) and the endpoint roles of {@link EndpointRules}.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ApiProperties properties) throws Exception {
        var security = properties.security();
        var problems = new ProblemResponses(security.mode());
        http.csrf(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                // security headers written before the handler runs: streamed bodies (files, event
                // streams) commit the response on another thread, where lazily written headers race
                .headers(h -> h.withObjectPostProcessor(new ObjectPostProcessor<HeaderWriterFilter>() {
                    @Override
                    public <O extends HeaderWriterFilter> O postProcess(O filter) {
                        filter.setShouldWriteHeadersEagerly(true);
                        return filter;
                    }
                }))
                .exceptionHandling(e -> e.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .authorizeHttpRequests(EndpointRules::apply);
        if (security.mode() == ApiProperties.Security.Mode.API_KEY) {
            http.addFilterBefore(
                    new ApiKeyFilter(new ApiKeys(security.apiKeys()), problems), AnonymousAuthenticationFilter.class);
        } else {
            JwtDecoder jwtDecoder = TokenDecoders.of(security.jwt());
            http.oauth2ResourceServer(o -> o.authenticationEntryPoint(problems)
                    .accessDeniedHandler(problems)
                    .jwt(j -> j.decoder(jwtDecoder).jwtAuthenticationConverter(new JwtRoles(security.jwt()))));
        }
        return http.build();
    }
}
