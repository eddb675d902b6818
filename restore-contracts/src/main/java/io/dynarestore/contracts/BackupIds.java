package io.dynarestore.contracts;

import java.util.regex.Pattern;

/**
 * The one rule for ids that name things in the vault (backup ids, export ids, Snap ids), as
 * {@code common.schema.json#/$defs/safeId} says: 1 to 128 letters, digits, {@code _}, {@code .},
 * {@code :} and {@code -}, starting with a letter or a digit, with no {@code ..}. They become S3 keys
 * ({@code backups/<id>/}, {@code pitr/<id>/}), so a {@code /} or a leading {@code .} may not pass.
 */
public final class BackupIds {

    public static final Pattern PATTERN = Pattern.compile("(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    private BackupIds() {
    }

    public static boolean valid(String id) {
        return id != null && PATTERN.matcher(id).matches();
    }
}
