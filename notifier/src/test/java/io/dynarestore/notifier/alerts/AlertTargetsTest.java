package io.dynarestore.notifier.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.webhooks.WebhookTargets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlertTargetsTest {

    @Test
    void takesHttpsWebhooksAndAddressesAndIgnoresBlankEntries() {
        // Given what an operator lists, with the blanks an empty environment variable leaves
        var targets = AlertTargets.checked(
                Arrays.asList("https://hooks.example.com/drills", " ", null),
                List.of("", "oncall@example.com"),
                WebhookTargets.strict());

        // Then the blanks are gone and the rest kept as given
        assertThat(targets.webhooks()).containsExactly("https://hooks.example.com/drills");
        assertThat(targets.emails()).containsExactly("oncall@example.com");
        assertThat(targets.isEmpty()).isFalse();
    }

    @Test
    void hasNobodyToAlertWhenNothingIsConfigured() {
        assertThat(AlertTargets.checked(null, null, WebhookTargets.strict()).isEmpty())
                .isTrue();
    }

    @Test
    void refusesAWebhookTheWebhookRuleRefusesNamingTheKeyAndNotTheUrl() {
        // A plain http URL, and one inside the network, where production's rule allows neither
        assertThatThrownBy(() -> AlertTargets.checked(
                        List.of("https://hooks.example.com/a", "http://hooks.example.com/b?token=s3cret"),
                        List.of(),
                        WebhookTargets.strict()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("notifier.alerts.webhooks[1] uses http")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> AlertTargets.checked(
                        List.of("https://169.254.169.254/latest"), List.of(), WebhookTargets.strict()))
                .hasMessageStartingWith("notifier.alerts.webhooks[0]");
    }

    @Test
    void refusesSomethingThatIsNotAnEmailAddressAndSaysWhatToGive() {
        assertThatThrownBy(() -> AlertTargets.checked(
                        List.of(), List.of("oncall@example.com", "oncall at example"), WebhookTargets.strict()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("notifier.alerts.emails[1] is not an email address")
                .hasMessageContaining("oncall@example.com");
    }
}
