package io.dynarestore.api.restores;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.links.Links;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * {@code POST /restores} as a slice (the controller and the problem handler, no broker): what it
 * refuses, with which status and problem, before anything is published.
 */
@WebMvcTest(RestoresController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class RestoresControllerTest {

    static final String VALID = """
            {"source": {"table": "orders", "backupId": "b-1"},
             "destination": {"type": "NEW_TABLE", "tableName": "orders-restored"}}""";

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    RestoreViews views;

    @MockitoBean
    RestoreValidator validator;

    @MockitoBean
    EventPublisher publisher;

    @Autowired
    AwsClients aws;

    @MockitoBean
    ApiProperties properties;

    @MockitoBean
    Links links;

    @MockitoBean
    CallerLimits limits;

    private MvcTestResult post(String body) {
        return ApiSlices.send(mvc, HttpMethod.POST, "/restores", body);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersJsonThatDoesNotParseWith400AndAProblemOfItsOwnCode() {
        // When the body is not JSON
        MvcTestResult result = post("{\"source\": ");

        // Then it is a 400 problem that says so, and nothing is published
        problem(result, 400, "INVALID_JSON");
        verifyNoInteractions(publisher);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersARequestWithoutASourceTableWith400NamingTheField() {
        // When the source names no table
        MvcTestResult result = post("""
                {"source": {"backupId": "b-1"},
                 "destination": {"type": "NEW_TABLE", "tableName": "orders-restored"}}""");

        // Then the problem names the field
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .contains("/source/table");
        verifyNoInteractions(publisher);
    }

    @Test
    @WithMockUser(authorities = "read")
    void refusesACallerWithoutTheRestoreRoleWith403NamingTheRole() {
        // When a caller who may only read submits a restore into a new table
        MvcTestResult result = post(VALID);

        // Then it is a 403 that names the role missing, and nothing is published
        problem(result, 403, "FORBIDDEN").contains("restore");
        verifyNoInteractions(publisher);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersABackupTheVaultDoesNotHoldWith422AndTheValidatorsReason() {
        // Given a validator that does not find the backup
        when(validator.check(any()))
                .thenReturn(RestoreValidator.Verdict.problem(
                        RejectionCode.BACKUP_NOT_FOUND, "/source/backupId", "There is no backup b-1 of table orders."));

        // When it is submitted
        MvcTestResult result = post(VALID);

        // Then the problem carries the code, the reason and the field, and nothing is published
        problem(result, 422, "BACKUP_NOT_FOUND").contains("There is no backup b-1");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .containsExactly("/source/backupId");
        verifyNoInteractions(publisher);
    }
}
