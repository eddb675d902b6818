package io.dynarestore.planner.fleet;

import io.dynarestore.core.vault.VaultLayout;

/**
 * Where one planning of a shared delta lies in the vault: {@code _staging/<restoreId>/delta-parts/<attempt>/}
 * holds the input ({@code input.json}), each part's files ({@code part-<n>/}) and each part's outcome
 * ({@code outcome/part-<n>.json}, written last).
 */
record PartFiles(String prefix) {

    static PartFiles of(VaultLayout layout, String restoreId, String attempt) {
        return new PartFiles(layout.stagingPrefix(restoreId) + "delta-parts/" + attempt + "/");
    }

    String input() {
        return prefix + "input.json";
    }

    String part(int part) {
        return prefix + "part-" + part + "/";
    }

    String outcomes() {
        return prefix + "outcome/";
    }

    String outcome(int part) {
        return outcomes() + "part-" + part + ".json";
    }
}
