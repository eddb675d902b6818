package io.dynarestore.contracts.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookTargetsTest {

    static final WebhookTargets STRICT = WebhookTargets.strict();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://hooks.example.com/restores",
                "https://hooks.example.com:8443/r?x=1",
                "HTTPS://Hooks.Example.com/",
                "https://93.184.216.34/hook",
                "https://[2606:2800:220:1::248]/hook"
            })
    void takesHttpsUrlsOfHostsOnTheInternet(String url) {
        assertThat(STRICT.refusal(url)).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://a b/                                   | not a valid URL",
                "http://hooks.example.com/                     | uses http",
                "ftp://hooks.example.com/                      | not an https",
                "https://user:secret@hooks.example.com/        | user info",
                "https://hooks.example.com@127.0.0.1/          | user info",
                "https://localhost/hook                        | inside the network",
                "https://metadata.google.internal/             | inside the network",
                "https://printer.local/                        | inside the network",
                "https://127.0.0.1/                            | loopback",
                "https://127.1.2.3:8443/                       | loopback",
                "https://0.0.0.0/                              | unspecified",
                "https://169.254.169.254/latest/meta-data/     | link-local",
                "https://10.0.0.8/                             | private",
                "https://172.16.5.4/                           | private",
                "https://192.168.1.1/                          | private",
                "https://100.64.0.1/                           | carrier-grade NAT",
                "https://[::1]/                                | loopback",
                "https://[fe80::1]/                            | link-local",
                "https://[fd12:3456::1]/                       | unique-local",
                "https://[::ffff:127.0.0.1]/                   | loopback",
                "https://[64:ff9b::a00:1]/                     | private",
                "https://2130706433/                           | host",
                "https://0x7f.0.0.1/                           | host",
                "https://127.1/                                | host",
                "https:///path                                 | no host",
                "/relative/path                                | not an https",
            })
    void refusesUrlsThatReachInsideTheNetworkOrCarryCredentials(String url, String why) {
        assertThat(STRICT.refusal(url)).contains(why);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.0.0.1",
                "127.0.0.1",
                "169.254.169.254",
                "100.100.0.1",
                "::1",
                "fc00::5",
                "224.0.0.1",
                "255.255.255.255",
                "0.1.2.3"
            })
    void refusesEveryResolvedAddressInsideANetwork(String address) throws Exception {
        assertThat(STRICT.refusal("hooks.example.com", InetAddress.getByName(address)))
                .isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "93.184.216.34", "2606:2800:220:1::248", "100.128.0.1", "172.32.0.1"})
    void takesPublicAddresses(String address) throws Exception {
        assertThat(STRICT.refusal("hooks.example.com", InetAddress.getByName(address)))
                .isNull();
    }

    @ParameterizedTest(name = "{0} allowed by {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:8080/hook       | 127.0.0.1",
                "https://10.1.2.3/hook            | 10.1.0.0/16",
                "https://hooks.corp.internal/hook | hooks.corp.internal",
                "https://a.corp.internal/hook     | *.corp.internal",
            })
    void letsTheOperatorAllowHostsAndRangesInsideTheNetwork(String url, String allowed) throws Exception {
        var targets = new WebhookTargets(true, List.of(allowed));
        assertThat(targets.refusal(url)).isNull();
        assertThat(STRICT.refusal(url)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.1.0.0/16", "hooks.corp.internal"})
    void allowsOnlyWhatTheListNames(String allowed) throws Exception {
        var targets = new WebhookTargets(false, List.of(allowed));
        assertThat(targets.refusal("other.example.com", InetAddress.getByName("10.2.0.1")))
                .isNotNull();
    }
}
