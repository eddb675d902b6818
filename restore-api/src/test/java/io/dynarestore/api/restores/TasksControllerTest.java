package io.dynarestore.api.restores;

import static io.dynarestore.api.ApiSlices.problem;
import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiSlices;
import io.dynarestore.core.kafka.EventPublisher;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The tasks list and a restore's cancel and rollback as a slice (the controller and the problem
 * handler, no broker): what they refuse, with which status and problem, before a command is sent.
 */
@WebMvcTest(TasksController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class TasksControllerTest {

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    RestoreViews views;

    @MockitoBean
    EventPublisher publisher;

    @MockitoBean
    CallerLimits limits;

    /** Restore r1, running, as the views know it. */
    private void running() {
        when(views.find("r1")).thenReturn(Optional.of(RestoreSummary.of(RestoreSummaryTest.running("r1"))));
        when(views.request("r1")).thenReturn(Optional.of(aRestore("r1").normalized()));
    }

    @Test
    @WithMockUser(authorities = "read")
    void answersAPageSizeOutsideItsBoundsWith400NamingTheParameter() {
        // When the list is asked for pages of no restores
        MvcTestResult result = mvc.get().uri("/restores?limit=0").exchange();

        // Then the problem names the parameter and its bounds
        problem(result, 400, "INVALID_QUERY");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo("/limit");
        assertThat(result).bodyJson().extractingPath("$.detail").asString().contains("between 1 and");
    }

    @Test
    @WithMockUser(authorities = "read")
    void answersAStateThatIsNoStateWith400ListingTheStates() {
        // When the list is filtered by a state that does not exist
        MvcTestResult result = mvc.get().uri("/restores?state=SLEEPING").exchange();

        // Then the problem lists the states there are
        problem(result, 400, "INVALID_QUERY");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo("/state");
        assertThat(result).bodyJson().extractingPath("$.detail").asString().contains("RUNNING", "COMPLETED");
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersACancelOfAnUnknownRestoreWith404AndSendsNothing() {
        // When a restore nobody submitted is cancelled
        MvcTestResult result = mvc.post().uri("/restores/nope/cancel").exchange();

        // Then it is a 404, and no command is sent
        problem(result, 404, "RESTORE_NOT_FOUND");
        verifyNoInteractions(publisher);
    }

    @Test
    @WithMockUser(authorities = "read")
    void refusesACancelByACallerWhoMayOnlyReadWith403AndSendsNothing() {
        // Given a running restore
        running();

        // When a caller who may only read cancels it
        MvcTestResult result = mvc.post().uri("/restores/r1/cancel").exchange();

        // Then it is a 403 naming the role the restore took, and no command is sent
        problem(result, 403, "FORBIDDEN").contains("restore");
        verifyNoInteractions(publisher);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersARollbackTheViewsRefuseWith409AndTheirReason() {
        // Given a running restore, which cannot be rolled back yet
        running();
        when(views.rollbackRefusal("r1")).thenReturn("it is still running");

        // When it is rolled back
        MvcTestResult result = mvc.post().uri("/restores/r1/rollback").exchange();

        // Then it is a 409 that says why, and no command is sent
        problem(result, 409, "ROLLBACK_NOT_POSSIBLE").contains("it is still running");
        verifyNoInteractions(publisher);
    }
}
