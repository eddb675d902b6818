package io.dynarestore.api.security;

import io.dynarestore.contracts.access.Role;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * Which role each endpoint takes, in one table: read for the catalog and the tasks; restore for
 * what reads backup data (previews, downloads) or adds to the catalog; any restore role for
 * starting and cancelling, which the controllers then narrow to the roles the restore's
 * destination and accounts need. The page, the link pages (a passcode guards them), probes,
 * metrics and the API description are public; everything else needs a caller. A HEAD request is
 * served by the GET handler, so every GET rule holds for HEAD too.
 */
public final class EndpointRules {

    /** One rule: {@code method pattern} needs any one of {@code roles}. */
    public record Rule(HttpMethod method, String pattern, Set<Role> roles) {}

    public static final List<String> PUBLIC = List.of(
            "/",
            "/index.html",
            "/app.js",
            "/restore-dialog.js",
            "/item-history.js",
            "/activity.js",
            "/app.css",
            "/favicon.ico",
            "/links/**",
            "/error",
            "/actuator/health",
            "/actuator/health/**",
            "/actuator/info",
            "/actuator/prometheus",
            "/v3/api-docs",
            "/v3/api-docs/**",
            "/swagger-ui.html",
            "/swagger-ui/**");

    private static final Set<Role> RESTORING = Set.of(Role.RESTORE, Role.RESTORE_IN_PLACE, Role.RESTORE_OVERWRITE);

    public static final List<Rule> RULES = List.of(
            new Rule(HttpMethod.GET, "/tables", Set.of(Role.READ)),
            // an item's history shows its records, as a preview does
            new Rule(HttpMethod.GET, "/tables/*/items/history", Set.of(Role.RESTORE)),
            new Rule(HttpMethod.GET, "/tables/**", Set.of(Role.READ)),
            new Rule(HttpMethod.GET, "/accounts", Set.of(Role.READ)),
            new Rule(HttpMethod.GET, "/restores", Set.of(Role.READ)),
            new Rule(HttpMethod.GET, "/restores/*/download", Set.of(Role.RESTORE)),
            new Rule(HttpMethod.GET, "/restores/*", Set.of(Role.READ)),
            new Rule(HttpMethod.GET, "/restores/*/events", Set.of(Role.READ)),
            new Rule(HttpMethod.POST, "/restores/preview", Set.of(Role.RESTORE)),
            new Rule(HttpMethod.POST, "/tables/*/exports", Set.of(Role.REGISTER_EXPORTS)),
            new Rule(HttpMethod.PUT, "/tables/*/protection", Set.of(Role.PROTECT)),
            new Rule(HttpMethod.DELETE, "/tables/*/protection", Set.of(Role.PROTECT)),
            new Rule(HttpMethod.POST, "/tables/*/backups", Set.of(Role.PROTECT)),
            new Rule(HttpMethod.POST, "/restores", RESTORING),
            new Rule(HttpMethod.POST, "/restores/*/cancel", RESTORING),
            new Rule(HttpMethod.POST, "/restores/*/rollback", RESTORING));

    private EndpointRules() {}

    static void apply(AuthorizeHttpRequestsConfigurer<?>.AuthorizationManagerRequestMatcherRegistry registry) {
        // an event stream's async dispatches and error pages continue a request already authorized
        registry.dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR)
                .permitAll();
        registry.requestMatchers(PUBLIC.toArray(new String[0])).permitAll();
        for (Rule rule : withHead()) {
            registry.requestMatchers(rule.method(), rule.pattern())
                    .hasAnyAuthority(rule.roles().stream().map(Role::id).toArray(String[]::new));
        }
        registry.anyRequest().authenticated();
    }

    /** The rules, each GET one also for HEAD. */
    static List<Rule> withHead() {
        var rules = new ArrayList<Rule>();
        for (Rule rule : RULES) {
            rules.add(rule);
            if (rule.method() == HttpMethod.GET) {
                rules.add(new Rule(HttpMethod.HEAD, rule.pattern(), rule.roles()));
            }
        }
        return rules;
    }

    /** The roles the endpoint of {@code request} takes, for a 403's detail. */
    static String describe(HttpServletRequest request) {
        for (Rule rule : withHead()) {
            if (PathPatternRequestMatcher.withDefaults()
                    .matcher(rule.method(), rule.pattern())
                    .matches(request)) {
                String names = rule.roles().stream().sorted().map(Role::id).collect(Collectors.joining(", "));
                return rule.roles().size() == 1 ? names : "one of " + names;
            }
        }
        return "its";
    }
}
