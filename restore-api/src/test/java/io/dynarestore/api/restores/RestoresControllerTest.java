package io.dynarestore.api.restores;

import static io.dynarestore.api.ApiSlices.problem;
import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.links.Links;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreAccepted;
import io.dynarestore.contracts.status.RestoreCompleted;
import io.dynarestore.contracts.status.RestoreView;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * refuses, with which status and problem, before anything is published; and what {@code GET
 * /restores/{id}} shows of the request.
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

    @Test
    @WithMockUser(authorities = "read")
    void saysWhichRecordsARestoreTookWhileItRunsAndAfterItEnded() {
        // Given a record restore of one key filter and one attribute filter
        var scope = new Scope.Records(
                List.of(new Scope.KeyFilter(
                        new Scope.Condition("BeginsWith", List.of("p12")),
                        new Scope.Condition("EqualTo", List.of("3")))),
                List.of(new Scope.AttributeFilter("status", "S", "EqualTo", List.of("open"))));
        var view = known(
                aRestore("r5").scope(scope).intoNewTable("orders-restored").normalized());
        String words = "partition key BeginsWith p12 and sort key EqualTo 3; status EqualTo open";

        // When it is read while it runs, Then it says which records in words
        assertThat(mvc.get().uri("/restores/r5").exchange())
                .bodyJson()
                .extractingPath("$.recordFilters")
                .isEqualTo(words);

        // and When it has ended (its view keeps only the request's outline), Then it still does
        view.apply(RestoreCompleted.of("r5", RestoreSummaryTest.TABLE, 3, 0, 0, 3));
        assertThat(view.request().scope()).isEqualTo(new Scope.Records(List.of(), null));
        when(views.find("r5")).thenReturn(Optional.of(RestoreSummary.of(view)));
        assertThat(mvc.get().uri("/restores/r5").exchange())
                .bodyJson()
                .extractingPath("$.recordFilters")
                .isEqualTo(words);
    }

    @Test
    @WithMockUser(authorities = "read")
    void neverShowsTheRecipientsOfAFileMailedAsALink() {
        // Given a whole-table export mailed as a passcode-protected link
        known(aRestore("r6")
                .toFile(new Destination.Delivery.Email(List.of("cfo@example.com"), "the orders", "l-1"))
                .normalized());

        // When it is read
        MvcTestResult result = mvc.get().uri("/restores/r6").exchange();

        // Then nothing names a recipient, and there are no filters to tell of
        assertThat(result).hasStatusOk();
        assertThat(result).bodyText().doesNotContain("cfo@example.com");
        assertThat(result).bodyJson().extractingPath("$.recordFilters").isNull();
    }

    /** A restore the views know, accepted from {@code request}, which a reader may follow. */
    private RestoreView known(RestoreRequested request) {
        var view = new RestoreView(request.restoreId());
        view.apply(RestoreAccepted.of(request));
        when(views.find(request.restoreId())).thenReturn(Optional.of(RestoreSummary.of(view)));
        when(views.toFollow(request.restoreId(), "000000000000")).thenReturn(Set.of(Role.READ));
        return view;
    }
}
