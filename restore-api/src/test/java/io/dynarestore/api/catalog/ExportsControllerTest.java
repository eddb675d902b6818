package io.dynarestore.api.catalog;

import static io.dynarestore.api.ApiSlices.problem;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.VaultSlice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * {@code POST /tables/{table}/exports} as a slice (the controller and the problem handler, no S3):
 * what a registration is refused for, with which status and problem, before the export is read.
 */
@WebMvcTest(ExportsController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class ExportsControllerTest extends VaultSlice {

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

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no export named (the form of an export's folder) | {}                                        | s3://bucket/prefix/AWSDynamoDB/
            a location that is no s3:// URI                  | {"s3Uri": "https://example.com/export"}  | expected an s3://bucket/prefix/
            """)
    @WithMockUser(authorities = "register-exports")
    void answersARegistrationWithoutAnS3FolderWith400SayingWhatOneLooksLike(String what, String body, String shown) {
        // When the body names no export, or no S3 folder
        MvcTestResult result = register(body);

        // Then the problem shows what was expected, and the vault is not touched
        problem(result, 400, "INVALID_REQUEST").contains(shown);
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
