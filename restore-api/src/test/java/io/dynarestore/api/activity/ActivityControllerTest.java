package io.dynarestore.api.activity;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;

import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.VaultSlice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** A table's activity as a slice: what it refuses, with which status and problem, before the vault is read. */
@WebMvcTest(ActivityController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class ActivityControllerTest extends VaultSlice {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a step that is no step   | step=fortnight                                            | /step        | SECOND, MINUTE or HOUR
            too many steps           | step=SECOND&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z | /step | give a larger step or a shorter range
            a start that is no time  | from=yesterday                                            | /from        | 2026-11-30T10:15:42Z
            an end before the start  | from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z         | /to          | give from < to
            a time limit out of range| timeLimitMs=0                                             | /timeLimitMs | between 1 and 30000
            """)
    @WithMockUser(authorities = "read")
    void answersAParameterOutOfRangeWith400NamingIt(String what, String query, String field, String shown) {
        // When a table's activity is asked for with the parameter
        MvcTestResult result = mvc.get().uri("/tables/orders/activity?" + query).exchange();

        // Then the problem names the field and what would do, and the vault is not read
        problem(result, 400, "INVALID_REQUEST").contains(shown);
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo(field);
        verifyNoInteractions(catalog);
    }
}
