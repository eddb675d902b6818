package io.dynarestore.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * Seeded values of the fields attackers and broken clients send: webhook URLs (malformed, inside
 * the network, with credentials, in odd notations), e-mail addresses, times, restore ids, and
 * table descriptions in every shape the AWS CLIs and SDKs print (AWS CLI v1 and v2, the JavaScript
 * SDK, boto3), whole or with one member broken. Each call draws one; about a fifth are well formed,
 * so that what passes goes on to deeper code.
 */
public final class HostileFields {

    static final List<String> URLS = List.of(
            "http://a b/",
            "https://[::1/x",
            "https://exa mple.com/",
            "http://",
            "https://",
            "https:///path",
            "//hooks.example.com/x",
            "hooks.example.com/x",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "gopher://127.0.0.1:6379/_FLUSHALL",
            "ftp://hooks.example.com/",
            "http://127.0.0.1/",
            "https://localhost:8443/",
            "https://169.254.169.254/latest/meta-data/",
            "https://[fd00::1]/",
            "https://[::ffff:10.0.0.1]/",
            "https://10.0.0.1/",
            "https://192.168.0.1:65535/",
            "https://100.64.1.1/",
            "https://0.0.0.0/",
            "https://2130706433/",
            "https://0x7f.1/",
            "https://user:pass@hooks.example.com/",
            "https://hooks.example.com@10.0.0.1/",
            "https://hooks.example.com:0/",
            "https://hooks.example.com:99999/",
            "https://metadata.google.internal/",
            "https://printer.local/",
            "https://xn--80ak6aa92e.com/",
            "https://hooks.example.com/%zz",
            "https://hooks.example.com/\r\nHost: evil",
            "https://h\u202eooks.example.com/",
            "https://hooks.example.com/" + "x".repeat(3_000),
            "HTTPS://HOOKS.EXAMPLE.COM/",
            "https://hooks.example.com/ok",
            "https://hooks.example.com/restores?token=abc");
    static final List<String> EMAILS = List.of(
            "ops",
            "ops@",
            "@example.com",
            "a@b@example.com",
            "ops@example..com",
            "ops@example.com\r\nBcc: all@example.com",
            "\"quoted\"@example.com",
            "ops@[127.0.0.1]",
            "o p@example.com",
            "ops@example.com,eve@example.com",
            "x".repeat(300) + "@example.com",
            "ops@exam_ple.com",
            "ops@example.com",
            "Zoë@example.com",
            "ops+restores@example.com");
    static final List<String> TIMES = List.of(
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-02-30T10:00:00Z",
            "2026-11-30T25:00:00Z",
            "2026-11-30T10:15:42",
            "2026-11-30 10:15:42Z",
            "1764583200",
            "-1",
            "latest ",
            "LATEST",
            "+999999999-12-31T23:59:59Z",
            "2026-11-30T10:15:42.5Z",
            "2026-11-30T10:15:42+25:00",
            "2026-11-30T10:15:42Z\nINFO forged",
            "2026-11",
            "",
            "latest",
            "2026-11-30T10:15:42Z");
    static final List<String> IDS = List.of(
            "",
            ".",
            "..",
            "../../etc",
            "a/b",
            "-x",
            "_x",
            "x".repeat(65),
            "a b",
            "a\r\nb",
            "a\u0000b",
            "\u202eevil",
            "%2e%2e",
            "ok-1",
            "6f1c2a4e-0d7b-4c55-9a8e-2f0d9b1e7c31");
    static final List<String> DESCRIPTIONS =
            List.of("aws-cli-v1.json", "aws-cli-v2.json", "javascript-sdk-v3.json", "boto3-default-str.json");
    static final List<String> TIMESTAMPS = List.of(
            "1741944413.589",
            "\"1741944413.589\"",
            "\"2025-03-14T09:26:53.589000+00:00\"",
            "\"2025-03-14T09:26:53.589Z\"",
            "\"2025-03-14 09:26:53.589000+00:00\"",
            "\"2025-03-14T09:26:53\"",
            "\"last tuesday\"",
            "{}",
            "[]",
            "true",
            "1e400",
            "-1e300",
            "null",
            "\"\"");

    private final Random random;
    private final Mutations mutations;

    public HostileFields(long seed) {
        this.random = new Random(seed);
        this.mutations = new Mutations(seed);
    }

    public String url() {
        return pick(URLS);
    }

    public String email() {
        return pick(EMAILS);
    }

    public String time() {
        return pick(TIMES);
    }

    public String restoreId() {
        return pick(IDS);
    }

    /** A describe-table output as one of the tools prints it; half of them with one member broken or retyped. */
    public String tableDescription() {
        String text = fixture(pick(DESCRIPTIONS));
        if (random.nextBoolean()) {
            return text;
        }
        if (random.nextBoolean()) {
            // a timestamp in another shape, or in none
            return text.replaceFirst(
                    "(\"CreationDateTime\"\\s*:\\s*)(\"[^\"]*\"|[0-9.]+)",
                    Matcher.quoteReplacement("\"CreationDateTime\": " + pick(TIMESTAMPS)));
        }
        return mutations.json(text);
    }

    /** {@code s} as a JSON string literal. */
    public static String quoted(String s) {
        var out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** A fixture of {@code describe-table/} on the classpath, as text. */
    public static String fixture(String name) {
        try (InputStream in = HostileFields.class.getResourceAsStream("/describe-table/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture describe-table/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Random random() {
        return random;
    }

    private String pick(List<String> values) {
        return values.get(random.nextInt(values.size()));
    }
}
