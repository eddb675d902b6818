package io.dynarestore.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Seeded mutations of bytes and JSON text, the way broken clients and damaged files break them. */
public final class Mutations {

    static final String[] NASTY = {
        "",
        " ",
        "null",
        "\"\"",
        "[]",
        "{}",
        "-1",
        "0",
        "1e309",
        "9999999999999999999999",
        "\"../../etc/passwd\"",
        "\"..%2f..%2fvault\"",
        "\"a\\u0000b\"",
        "\"\\ud800\"",
        "\"<script>alert(1)</script>\"",
        "\"' OR 1=1 --\"",
        "true",
        "\"" + "x".repeat(70_000) + "\"",
        "[" + "[".repeat(2_000) + "]".repeat(2_001),
        "{\"type\": \"RECORDS\"}",
        "{\"condition\": \"Between\", \"values\": [\"z\", \"a\"]}",
        "\"FULL\"",
        "\"EMAIL\"",
        "{\"$ref\": \"#\"}",
        "\"\\n\\r\\t\"",
        "\"\u202e\"",
        "1.5",
        "\"2026-13-45T99:99:99Z\""
    };

    private final Random random;

    public Mutations(long seed) {
        this.random = new Random(seed);
    }

    public Random random() {
        return random;
    }

    /** One random mutation of a JSON text: a value replaced, a member dropped or added, cut, bytes flipped. */
    public String json(String valid) {
        String s = valid;
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            switch (random.nextInt(8)) {
                case 0 -> s = replaceValue(s);
                case 1 -> s = dropMember(s);
                case 2 -> s = s.replaceFirst("\\{", Matcher.quoteReplacement("{\"" + word() + "\": " + nasty() + ", "));
                case 3 -> s = s.substring(0, random.nextInt(s.length() + 1));
                case 4 -> s = flip(s);
                case 5 -> s = replaceString(s);
                case 6 -> s = s.replace("\"" + pickKey(s) + "\"", "\"" + word() + "\"");
                default -> s = nasty();
            }
        }
        return s;
    }

    /** A copy of {@code bytes} cut, flipped or with random bytes inserted. */
    public byte[] bytes(byte[] valid) {
        byte[] b = valid.clone();
        switch (random.nextInt(4)) {
            case 0 -> b = Arrays.copyOf(b, random.nextInt(Math.max(1, b.length)));
            case 1 -> {
                for (int i = 0, n = 1 + random.nextInt(8); i < n && b.length > 0; i++) {
                    b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            case 2 -> {
                byte[] junk = new byte[1 + random.nextInt(64)];
                random.nextBytes(junk);
                int at = random.nextInt(b.length + 1);
                byte[] out = new byte[b.length + junk.length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(junk, 0, out, at, junk.length);
                System.arraycopy(b, at, out, at + junk.length, b.length - at);
                b = out;
            }
            default -> {
                b = new byte[random.nextInt(256)];
                random.nextBytes(b);
            }
        }
        return b;
    }

    public String nasty() {
        return NASTY[random.nextInt(NASTY.length)];
    }

    private String word() {
        String[] words = {
            "type",
            "values",
            "condition",
            "table",
            "backupId",
            "pointInTime",
            "snapId",
            "restoreId",
            "destination",
            "scope",
            "keyFilters",
            "options",
            "tags",
            "x",
            "__proto__",
            "name"
        };
        return words[random.nextInt(words.length)];
    }

    private String replaceValue(String s) {
        var m = Pattern.compile(":\\s*(\"[^\"]*\"|-?[0-9.]+|true|false|null)").matcher(s);
        var starts = new ArrayList<int[]>();
        while (m.find()) {
            starts.add(new int[] {m.start(1), m.end(1)});
        }
        if (starts.isEmpty()) {
            return s;
        }
        int[] at = starts.get(random.nextInt(starts.size()));
        return s.substring(0, at[0]) + nasty() + s.substring(at[1]);
    }

    private String replaceString(String s) {
        var m = Pattern.compile("\"([^\"]*)\"").matcher(s);
        var spans = new ArrayList<int[]>();
        while (m.find()) {
            spans.add(new int[] {m.start(1), m.end(1)});
        }
        if (spans.isEmpty()) {
            return s;
        }
        int[] at = spans.get(random.nextInt(spans.size()));
        String[] odd = {"", "..", "../x", "a/b", "%00", "\\\\", "ñ", "𝄞", "x".repeat(300), "EqualTo", "S", "B"};
        return s.substring(0, at[0]) + odd[random.nextInt(odd.length)] + s.substring(at[1]);
    }

    private String dropMember(String s) {
        var m = Pattern.compile("\"[A-Za-z]+\":\\s*(\"[^\"]*\"|-?[0-9.]+|true|false|null),?")
                .matcher(s);
        var spans = new ArrayList<int[]>();
        while (m.find()) {
            spans.add(new int[] {m.start(), m.end()});
        }
        if (spans.isEmpty()) {
            return s;
        }
        int[] at = spans.get(random.nextInt(spans.size()));
        return s.substring(0, at[0]) + s.substring(at[1]);
    }

    private String pickKey(String s) {
        var m = Pattern.compile("\"([A-Za-z]+)\":").matcher(s);
        var keys = new ArrayList<String>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys.isEmpty() ? "type" : keys.get(random.nextInt(keys.size()));
    }

    private String flip(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length == 0) {
            return s;
        }
        b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(127));
        return new String(b, StandardCharsets.UTF_8);
    }
}
