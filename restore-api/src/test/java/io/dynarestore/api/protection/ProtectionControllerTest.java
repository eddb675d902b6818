package io.dynarestore.api.protection;

import static io.dynarestore.api.ApiSlices.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.dynarestore.api.ApiSlices;
import io.dynarestore.api.restores.DrillLookup;
import io.dynarestore.core.aws.AwsClients;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * {@code PUT /tables/{table}/protection} as a slice (the controller and the problem handler, no
 * broker): what it refuses, with which status and problem, before a policy is set.
 */
@WebMvcTest(ProtectionController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(ApiSlices.Beans.class)
class ProtectionControllerTest {

    static final String STREAMS_POLICY = """
            {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
             "changeLog": {"method": "STREAMS", "flushEvery": "PT1M"}}""";

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    Policies policies;

    @MockitoBean
    DrillLookup drills;

    @Autowired
    AwsClients aws;

    final DynamoDbClient dynamo = mock(DynamoDbClient.class);

    @BeforeEach
    void defaults() {
        when(aws.dynamo(any(), any())).thenReturn(dynamo);
    }

    private MvcTestResult put(String table, String body) {
        return ApiSlices.send(mvc, HttpMethod.PUT, "/tables/" + table + "/protection", body);
    }

    @Test
    @WithMockUser(authorities = "protect")
    void answersAPolicyThatBreaksItsRulesWith400NamingEachField() {
        // When backups come every second and the read share is over 100%
        MvcTestResult result = put("orders", """
                {"backups": {"method": "SCAN", "every": "PT1S", "retention": "P7D", "readSharePercent": 150},
                 "changeLog": {"method": "STREAMS", "flushEvery": "PT1M"}}""");

        // Then the problem names both fields, and no policy is set
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .contains("/backups/every", "/backups/readSharePercent");
        verifyNoInteractions(policies);
    }

    @Test
    @WithMockUser(authorities = "protect")
    void answersDrillsOutsideTheirRulesWith400NamingEachField() {
        // When drills come every second, with no budget of items and more WCU than a table takes
        MvcTestResult result = put("orders", """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "NONE"},
                 "drills": {"every": "PT1S", "maxItems": 0, "writeUnits": 50000}}""");

        // Then the problem names each of them, and no policy is set
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .contains("/drills/every", "/drills/maxItems", "/drills/writeUnits");
        verifyNoInteractions(policies);
    }

    @Test
    @WithMockUser(authorities = "protect")
    void answersANameThatCannotBeADynamoDbTableWith400() {
        // When the path names no possible table
        MvcTestResult result = put("x", STREAMS_POLICY);

        // Then the problem says what a table name is
        problem(result, 400, "INVALID_REQUEST");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo("/table");
        verifyNoInteractions(policies);
    }

    @Test
    @WithMockUser(authorities = {"protect", "cross-account"})
    void answersAnAccountOutsideTheRegistryWith422() {
        // Given a registry without account 111111111111
        when(aws.allows("111111111111", "us-east-1")).thenReturn(false);

        // When a table there is protected
        MvcTestResult result = put("orders", """
                {"account": "111111111111",
                 "backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "STREAMS", "flushEvery": "PT1M"}}""");

        // Then the problem says the account is not registered
        problem(result, 422, "UNKNOWN_ACCOUNT");
        verifyNoInteractions(policies);
    }

    @Test
    @WithMockUser(authorities = {"read", "restore"})
    void refusesACallerWithoutTheProtectRoleWith403NamingTheRole() {
        // When a caller who may read and restore, but not protect, sets a policy
        MvcTestResult result = put("orders", STREAMS_POLICY);

        // Then it is a 403 that names the role, and no policy is set
        problem(result, 403, "FORBIDDEN").contains("protect");
        verifyNoInteractions(policies);
    }

    @Test
    @SuppressWarnings("unchecked")
    @WithMockUser(authorities = "protect")
    void answersAStreamsChangeLogOnATableWithoutAStreamWith422AndTheCommandThatEnablesIt() {
        // Given a table without a stream
        when(dynamo.describeTable(any(Consumer.class)))
                .thenReturn(DescribeTableResponse.builder()
                        .table(TableDescription.builder().tableName("orders").build())
                        .build());

        // When it is protected with a STREAMS change log
        MvcTestResult result = put("orders", STREAMS_POLICY);

        // Then the problem names the field and says how to enable the stream, and no policy is set
        problem(result, 422, "INVALID_REQUEST");
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo("/changeLog/method");
        assertThat(result)
                .bodyJson()
                .extractingPath("$.detail")
                .asString()
                .contains("StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES");
        verifyNoInteractions(policies);
    }
}
