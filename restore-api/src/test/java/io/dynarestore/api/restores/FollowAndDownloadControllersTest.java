package io.dynarestore.api.restores;

import static io.dynarestore.api.ApiSlices.problem;
import static io.dynarestore.contracts.request.RestoreRequests.aRestore;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.ApiSlices;
import io.dynarestore.contracts.access.Role;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.test.context.support.WithMockUser;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * A restore's event stream and its file download as a slice (the controllers and the problem
 * handler, no broker): what they refuse, with which status and problem, before anything is read.
 */
@WebMvcTest({EventsController.class, DownloadController.class})
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class FollowAndDownloadControllersTest {

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    RestoreViews views;

    @MockitoBean
    RestoreFiles files;

    @MockitoBean
    CallerLimits limits;

    @MockitoBean
    KafkaProperties kafka;

    /** The controllers read the stream settings once, when they are made. */
    @TestConfiguration
    static class Settings {
        @Bean
        ApiProperties properties() {
            ApiProperties properties = mock(ApiProperties.class);
            when(properties.events())
                    .thenReturn(new ApiProperties.Events(2, Duration.ofMinutes(1), Duration.ofSeconds(15)));
            return properties;
        }
    }

    /** Restore r1, running, submitted by ann into a new table. */
    private void running() {
        when(views.find("r1")).thenReturn(Optional.of(RestoreSummary.of(RestoreSummaryTest.running("r1"))));
        when(views.request("r1")).thenReturn(Optional.of(aRestore("r1").normalized()));
        when(views.toFollow("r1", "000000000000")).thenReturn(Set.of(Role.READ));
    }

    @Test
    @WithMockUser(authorities = "read")
    void answersTheEventsOfAnUnknownRestoreWith404() {
        // When the events of a restore nobody submitted are followed
        MvcTestResult result = mvc.get().uri("/restores/nope/events").exchange();

        // Then it is a 404 problem, and no stream is opened
        problem(result, 404, "RESTORE_NOT_FOUND");
        verifyNoInteractions(limits);
    }

    @Test
    @WithMockUser(authorities = "read")
    void answersALastEventIdThatIsNoOffsetWith400SayingToLeaveItOut() {
        // Given a running restore
        running();

        // When it is followed from an event id that is not a number
        MvcTestResult result = mvc.get()
                .uri("/restores/r1/events")
                .header("Last-Event-ID", "yesterday")
                .exchange();

        // Then the problem says what the id is and that it may be left out, and no stream is opened
        problem(result, 400, "INVALID_LAST_EVENT_ID").contains("leave it out");
        verifyNoInteractions(limits);
    }

    @Test
    @WithMockUser(authorities = "read")
    void refusesToFollowARestoreWithoutItsRolesWith403() {
        // Given a restore that takes cross-account to follow
        running();
        when(views.toFollow("r1", "000000000000")).thenReturn(Set.of(Role.READ, Role.CROSS_ACCOUNT));

        // When a caller who may only read follows it
        MvcTestResult result = mvc.get().uri("/restores/r1/events").exchange();

        // Then it is a 403 naming the role
        problem(result, 403, "FORBIDDEN").contains("cross-account");
        verifyNoInteractions(limits);
    }

    @Test
    @WithMockUser(username = "bob", authorities = "restore")
    void handsAFileOnlyToTheCallerWhoAskedForIt() {
        // Given a restore that bob did not submit
        running();

        // When bob downloads its file
        MvcTestResult result = mvc.get().uri("/restores/r1/download").exchange();

        // Then it is a 403 that names bob, and no file is read
        problem(result, 403, "FORBIDDEN").contains("'bob'");
        verifyNoInteractions(files);
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersTheFileOfAnUnknownRestoreWith404() {
        // When the file of a restore nobody submitted is downloaded
        MvcTestResult result = mvc.get().uri("/restores/nope/download").exchange();

        // Then it is a 404 problem
        problem(result, 404, "RESTORE_NOT_FOUND");
        verifyNoInteractions(files);
    }
}
