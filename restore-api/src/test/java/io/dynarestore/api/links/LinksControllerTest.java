package io.dynarestore.api.links;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.dynarestore.api.restores.RestoreFiles;
import io.dynarestore.contracts.links.LinkIssued;
import io.dynarestore.contracts.status.ExportCompleted;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * An email link's page and its passcode form as a slice (the controller and the problem handler):
 * problem details for a client that asks for JSON, a page for a browser, and no passcode counted
 * for a request that brings none.
 */
@WebMvcTest(LinksController.class)
@AutoConfigureMockMvc(addFilters = false)
class LinksControllerTest {

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    Links links;

    @MockitoBean
    RestoreFiles files;

    /** Link l1 of restore r1, open, with its file written. */
    private void openLink() {
        var link = new LinkLedger.Link(LinkIssued.of(
                "r1",
                "l1",
                "token-1",
                "hash",
                List.of("ann@example.com"),
                null,
                Instant.now().plusSeconds(3600)));
        when(links.find("token-1")).thenReturn(Optional.of(link));
        when(files.file("r1"))
                .thenReturn(Optional.of(ExportCompleted.of("r1", "vault", "files/r1.csv", 3, 100, "sha", false, 3)));
    }

    @Test
    void answersAnUnknownLinkWith404ProblemForAClientThatAsksForJson() {
        // When a link nobody issued is opened by a client that reads JSON
        MvcTestResult result = mvc.get()
                .uri("/links/nope")
                .accept(MediaType.APPLICATION_PROBLEM_JSON)
                .exchange();

        // Then it is a 404 problem that says to check the link
        assertThat(result).hasStatus(404).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("LINK_NOT_FOUND");
    }

    @Test
    void answersAnUnknownLinkWith404PageForABrowser() {
        // When a browser opens a link nobody issued
        MvcTestResult result =
                mvc.get().uri("/links/nope").accept(MediaType.TEXT_HTML).exchange();

        // Then it is a page that says what to check
        assertThat(result).hasStatus(404);
        assertThat(result.getResponse().getContentType()).startsWith("text/html");
        assertThat(result).body().asString().contains("whole link was copied");
    }

    @Test
    void answersAFormWithoutAPasscodeWith400AndCountsNoTry() {
        // Given an open link
        openLink();

        // When its form is sent without a passcode
        MvcTestResult result = mvc.post()
                .uri("/links/token-1")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .accept(MediaType.APPLICATION_PROBLEM_JSON)
                .exchange();

        // Then it is a 400 that asks for the passcode, and no try is counted against the link
        assertThat(result).hasStatus(400);
        assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("PASSCODE_MISSING");
        verify(links, never()).tryPasscode(anyString(), any());
    }
}
