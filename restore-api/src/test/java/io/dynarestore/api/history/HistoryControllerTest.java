package io.dynarestore.api.history;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.verifyNoInteractions;

import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.VaultSlice;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.core.filter.KeySchema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** An item's history as a slice: what it refuses, with which status and problem, before the vault is read. */
@WebMvcTest(HistoryController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class HistoryControllerTest extends VaultSlice {

    static final KeySchema ORDERS = KeySchema.of(List.of("pk", "sk"), List.of("S", "N"));

    private MvcTestResult get(String uri) {
        return mvc.get().uri(uri).exchange();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a page of none              | limit=0                                          | /limit | between 1 and 1000
            a page too long             | limit=5000                                       | /limit | between 1 and 1000
            a start that is no time     | from=yesterday                                   | /from  | 2026-11-30T10:15:42Z
            an end before the start     | from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z | /to    | give from <= to
            """)
    @WithMockUser(authorities = "restore")
    void answersABoundOutOfRangeWith400NamingIt(String what, String query, String field, String shown) {
        // When an item's history is asked for with the bound
        MvcTestResult result = get("/tables/orders/items/history?key=%7B%7D&" + query);

        // Then the problem names the field and what would do, and the vault is not read
        problem(result, 400, "INVALID_REQUEST").contains(shown);
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo(field);
        verifyNoInteractions(catalog);
    }

    @Test
    @WithMockUser(authorities = "read")
    void refusesACallerWhoMayNotReadBackupDataWith403() {
        // When a caller who may read the catalog but not restore asks for an item's history
        MvcTestResult result = get("/tables/orders/items/history?key=%7B%7D");

        // Then it is refused naming the role, since a history shows the item's records
        problem(result, 403, "FORBIDDEN").contains("restore");
        verifyNoInteractions(catalog);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            JSON that does not parse   | {"pk":                                  | not an item key in DynamoDB JSON
            a key without its sort key | {"pk":{"S":"a"}}                        | exactly the table's key attributes [pk, sk]
            an attribute not of the key| {"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"y"}} | exactly the table's key attributes
            a sort key of another type | {"pk":{"S":"a"},"sk":{"S":"1"}}         | sk must be of type N
            """)
    void refusesAKeyThatIsNotOneOfTheTableNamingTheFormThatWould(String what, String json, String shown) {
        assertThatThrownBy(() -> HistoryController.key(json, ORDERS))
                .isInstanceOf(ApiProblem.class)
                .hasMessageContaining(shown)
                .hasMessageContaining("{\"pk\":{\"S\":\"...\"},\"sk\":{\"N\":\"...\"}}");
    }

    @Test
    void takesAKeyOfTheTable() {
        assertThat(HistoryController.key("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}", ORDERS))
                .containsOnlyKeys("pk", "sk");
    }
}
