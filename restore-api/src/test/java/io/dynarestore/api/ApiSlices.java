package io.dynarestore.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.dynarestore.core.aws.AwsClients;
import java.time.Clock;
import org.assertj.core.api.AbstractStringAssert;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** What the controller slice tests share: an account registry of the default account, and a clock. */
public final class ApiSlices {

    public static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";

    private ApiSlices() {}

    /** Asserts a problem (RFC 9457) of {@code status} and {@code code}; its detail is left to check further. */
    public static AbstractStringAssert<?> problem(MvcTestResult result, int status, String code) {
        assertThat(result).hasStatus(status).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo(code);
        return assertThat(result).bodyJson().extractingPath("$.detail").asString();
    }

    /** {@code aws} answers with the default account and region, and allows every account it is asked about. */
    private static AwsClients registry(AwsClients aws) {
        when(aws.defaultAccount()).thenReturn(ACCOUNT);
        when(aws.defaultRegion()).thenReturn(REGION);
        when(aws.allows(any(), any())).thenReturn(true);
        return aws;
    }

    /**
     * The registry as a bean made before the controllers (some read the default account once, when they
     * are made), and the system clock. A test that needs an account outside the registry stubs one of its
     * own: the stubs stay for the tests after it.
     */
    @TestConfiguration
    public static class Beans {
        @Bean
        AwsClients aws() {
            return registry(mock(AwsClients.class));
        }

        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }
    }

    /** {@code method} of {@code uri} with a JSON body. */
    public static MvcTestResult send(MockMvcTester mvc, HttpMethod method, String uri, String json) {
        return mvc.method(method)
                .uri(uri)
                .contentType(MediaType.APPLICATION_JSON)
                .content(json)
                .exchange();
    }
}
