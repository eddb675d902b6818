package io.dynarestore.api.preview;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.VaultSlice;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * {@code POST /restores/preview} as a slice (the controller and the problem handler, no S3): what
 * it refuses, with which status and problem, before a backup is read.
 */
@WebMvcTest(PreviewController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class PreviewControllerTest extends VaultSlice {

    @MockitoBean
    ApiProperties properties;

    private MvcTestResult preview(String body) {
        return ApiSlices.send(mvc, HttpMethod.POST, "/restores/preview", body);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no source table                | {"source": {"backupId": "b-1"}}                                                   | /source
            a limit of no items            | {"source": {"table": "orders", "backupId": "b-1"}, "limit": 0}                    | /limit
            a time limit of a day          | {"source": {"table": "orders", "backupId": "b-1"}, "timeLimitMs": 86400000}      | /timeLimitMs
            """)
    @WithMockUser(authorities = "restore")
    void answersAPreviewOutsideItsBoundsWith400NamingTheField(String what, String body, String field) {
        // When a preview asks for something out of bounds
        MvcTestResult result = preview(body);

        // Then the problem names the field, and the vault is not read
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo(field);
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = "read")
    void refusesACallerWhoMayOnlyReadTheCatalogWith403() {
        // When a caller who may read the catalog, but not restore (a preview shows the records), previews a backup
        MvcTestResult result = preview("{\"source\": {\"table\": \"orders\", \"backupId\": \"b-1\"}}");

        // Then it is a 403 naming the role, and the vault is not read
        problem(result, 403, "FORBIDDEN").contains("restore");
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersABackupTheVaultDoesNotHoldWith422AndWhereToListThem() {
        // Given a vault without backup b-1
        when(catalog.findBackup(any(), any(), any(), any())).thenReturn(Optional.empty());

        // When it is previewed
        MvcTestResult result = preview("{\"source\": {\"table\": \"orders\", \"backupId\": \"b-1\"}}");

        // Then the problem says so and where the backups are listed
        problem(result, 422, "BACKUP_NOT_FOUND").contains("GET /tables/orders/backups");
    }
}
