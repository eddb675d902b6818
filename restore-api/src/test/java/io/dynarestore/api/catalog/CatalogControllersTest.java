package io.dynarestore.api.catalog;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.VaultSlice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The catalog's endpoints as a slice ({@code /tables}, a table's backups, PITR windows and
 * calendar): what each refuses, with which status and problem, before the vault is read.
 */
@WebMvcTest({TablesController.class, BackupsController.class, PitrController.class})
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class CatalogControllersTest extends VaultSlice {

    private MvcTestResult get(String uri, Object... variables) {
        return mvc.get().uri(uri, variables).exchange();
    }

    @Test
    @WithMockUser(authorities = "read")
    void answersANameThatCannotBeADynamoDbTableWith400NamingTheField() {
        // When a table's backups are asked for under a name no table can have
        MvcTestResult result = get("/tables/{table}/backups", "orders!");

        // Then the problem names the field, and the vault is not read
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo("/table");
        verifyNoInteractions(catalog);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a window bound that is no time | /tables/orders/pitr-windows?from=yesterday | from 'yesterday';2026-11-30T10:15:42Z
            a month that is no month       | /tables/orders/calendar?month=November     | 2026-11
            """)
    @WithMockUser(authorities = "read")
    void answersATimeThatDoesNotParseWith400AndItsForm(String what, String uri, String shown) {
        // When the windows or the calendar are asked for with a time that does not parse
        MvcTestResult result = get(uri);

        // Then the problem names it and shows the form that would parse
        problem(result, 400, "INVALID_REQUEST").contains(shown.split(";"));
    }

    @Test
    @WithMockUser(authorities = "restore")
    void refusesACallerWithoutTheReadRoleWith403() {
        // When a caller who may restore but not read lists the tables
        MvcTestResult result = get("/tables");

        // Then it is a 403 that names the role, and the vault is not read
        problem(result, 403, "FORBIDDEN").contains("read");
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = {"read", "cross-account"})
    void answersAnAccountOutsideTheRegistryWith422SayingWhereTheRegisteredOnesAre() {
        // Given a registry without account 111111111111
        when(aws.allows("111111111111", "us-east-1")).thenReturn(false);

        // When its tables are listed
        MvcTestResult result = get("/tables?account=111111111111");

        // Then the problem says so and where to look
        problem(result, 422, "UNKNOWN_ACCOUNT").contains("GET /accounts");
        verifyNoInteractions(catalog);
    }
}
