package io.dynarestore.api.restores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.links.Links;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.restore.RestoreValidator;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
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

    @MockitoBean
    AwsClients aws;

    @MockitoBean
    ApiProperties properties;

    @MockitoBean
    Links links;

    @MockitoBean
    CallerLimits limits;

    @TestConfiguration
    static class FixedClock {
        @Bean
        Clock clock() {
            return Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
        }
    }

    @BeforeEach
    void defaults() {
        when(aws.defaultAccount()).thenReturn("000000000000");
        when(aws.defaultRegion()).thenReturn("us-east-1");
    }

    private MvcTestResult post(String body) {
        return mvc.post()
                .uri("/restores")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    @Test
    @WithMockUser(authorities = "restore")
    void answersJsonThatDoesNotParseWith400AndAProblemOfItsOwnCode() {
        // When the body is not JSON
        MvcTestResult result = post("{\"source\": ");

        // Then it is a 400 problem that says so, and nothing is published
        assertThat(result).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("INVALID_JSON");
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
        assertThat(result).hasStatus(400);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("INVALID_REQUEST");
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
        assertThat(result).hasStatus(403);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("FORBIDDEN");
        assertThat(result).bodyJson().extractingPath("$.detail").asString().contains("restore");
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
        assertThat(result).hasStatus(422);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("BACKUP_NOT_FOUND");
        assertThat(result).bodyJson().extractingPath("$.detail").asString().contains("There is no backup b-1");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .containsExactly("/source/backupId");
        verifyNoInteractions(publisher);
    }
}
