package io.dynarestore.contracts;

import java.util.regex.Pattern;

/**
 * The one rule for restore ids, wherever one enters (a request body, a command, a URL, a header):
 * 1 to 64 letters, digits, {@code _}, {@code .} and {@code -}, starting with a letter or a digit,
 * as {@code common.schema.json#/$defs/restoreId} says. Restore ids become S3 keys
 * ({@code _staging/<id>/}, {@code _journal/<id>/}), log lines and mail headers, so nothing else
 * may pass.
 */
public final class RestoreIds {

    public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private RestoreIds() {}

    public static boolean valid(String id) {
        return id != null && PATTERN.matcher(id).matches();
    }

    /** What to say of an id that is not valid. */
    public static String rule() {
        return "a restore id is 1 to 64 letters, digits, '_', '.' and '-', starting with a letter or a digit "
                + "(a UUID is a good choice)";
    }
}
