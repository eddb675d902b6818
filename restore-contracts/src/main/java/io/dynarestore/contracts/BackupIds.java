package io.dynarestore.contracts;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * The one rule for ids that name things in the vault (backup ids, export ids, Snap ids), as
 * {@code common.schema.json#/$defs/safeId} says: 1 to 128 letters, digits, {@code _}, {@code .},
 * {@code :} and {@code -}, starting with a letter or a digit, with no {@code ..}. They become S3 keys
 * ({@code backups/<id>/}, {@code pitr/<id>/}), so a {@code /} or a leading {@code .} may not pass.
 */
public final class BackupIds {

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    public static final Pattern PATTERN = Pattern.compile("(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    private BackupIds() {}

    public static boolean valid(String id) {
        return id != null && PATTERN.matcher(id).matches();
    }

    /** The time part of an id named after an instant ({@code 20261201T100000Z}): ids of one table sort by time. */
    public static String stamp(Instant at) {
        return STAMP.format(at);
    }
}
