package io.dynarestore.api.restores;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.contracts.RestoreIds;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Every {@code {restoreId}} of a URL passes {@link RestoreIds} before any handler sees it: one
 * check for every endpoint, so that no id that could escape an S3 prefix or a log line reaches a
 * view, a topic or a key. A bad one is a 400 that states the rule.
 */
@Configuration(proxyBeanMethods = false)
class RestoreIdCheck implements WebMvcConfigurer, HandlerInterceptor {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/restores/*", "/restores/*/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables
                && variables.get("restoreId") instanceof String id
                && !RestoreIds.valid(id)) {
            throw new ApiProblem(
                    400,
                    "INVALID_RESTORE_ID",
                    "'" + printable(id) + "' is not a restore id: " + RestoreIds.rule() + ".",
                    List.of(new FieldError("/restoreId", "not a restore id")));
        }
        return true;
    }

    /** The id as it may be shown back: at most 80 characters, control characters replaced. */
    private static String printable(String id) {
        String s = id.length() > 80 ? id.substring(0, 80) + "..." : id;
        return s.replaceAll("[\\p{Cc}\\p{Cf}\\u2028\\u2029]", "?");
    }
}
