package io.dynarestore.api.catalog;

import static io.dynarestore.api.ApiSlices.problem;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * {@code POST /tables/{table}/exports} as a slice (the controller and the problem handler, no S3):
 * what a registration is refused for, with which status and problem, before the export is read.
 */
@WebMvcTest(ExportsController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class ExportsControllerTest {

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    VaultCatalog catalog;

    @Autowired
    AwsClients aws;

    /** The controller takes its export locations when it is made. */
    @TestConfiguration
    static class Locations {
        @Bean
        ApiProperties properties() {
            ApiProperties properties = mock(ApiProperties.class);
            when(properties.exports())
                    .thenReturn(new ApiProperties.Exports(List.of("s3://customer-exports/"), Duration.ofDays(35)));
            return properties;
        }
    }

    private MvcTestResult register(String body) {
        return ApiSlices.send(mvc, HttpMethod.POST, "/tables/orders/exports", body);
    }

    @Test
    @WithMockUser(authorities = "register-exports")
    void answersARegistrationWithoutALocationWith400SayingWhatOneLooksLike() {
        // When the body names no export
        MvcTestResult result = register("{}");

        // Then the problem shows the form of an export's folder, and the vault is not touched
        problem(result, 400, "INVALID_REQUEST").contains("s3://bucket/prefix/AWSDynamoDB/");
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = "register-exports")
    void answersALocationThatIsNoS3FolderWith400() {
        // When the location is not an s3:// URI
        MvcTestResult result = register("{\"s3Uri\": \"https://example.com/export\"}");

        // Then the problem says what was expected
        problem(result, 400, "INVALID_REQUEST").contains("expected an s3://bucket/prefix/");
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = {"read", "restore"})
    void refusesACallerWithoutTheRegisterExportsRoleWith403() {
        // When a caller who may read and restore registers an export
        MvcTestResult result = register("{\"s3Uri\": \"s3://customer-exports/AWSDynamoDB/01764583200000-a1b2c3d4/\"}");

        // Then it is a 403 naming the role, and the vault is not touched
        problem(result, 403, "FORBIDDEN").contains("register-exports");
        verifyNoInteractions(catalog);
    }
}
