package io.dynarestore.planner.fleet;

import io.dynarestore.contracts.work.PlanningWork;
import io.dynarestore.contracts.work.SweepPartDispatched;
import io.dynarestore.core.vault.VaultLayout;

/**
 * Where one planning of shared work lies in the vault: {@code _staging/<restoreId>/delta-parts/<attempt>/}
 * (or {@code sweep-parts/}) holds the input ({@code input.json}), each part's files ({@code part-<n>/})
 * and each part's outcome ({@code outcome/part-<n>.json}, written last).
 */
record PartFiles(String prefix) {

    static PartFiles delta(VaultLayout layout, String restoreId, String attempt) {
        return new PartFiles(layout.stagingPrefix(restoreId) + "delta-parts/" + attempt + "/");
    }

    static PartFiles sweep(VaultLayout layout, String restoreId, String attempt) {
        return new PartFiles(layout.stagingPrefix(restoreId) + "sweep-parts/" + attempt + "/");
    }

    /** The files of the planning {@code work} is a part of. */
    static PartFiles of(VaultLayout layout, PlanningWork work) {
        return work instanceof SweepPartDispatched
                ? sweep(layout, work.restoreId(), work.attempt())
                : delta(layout, work.restoreId(), work.attempt());
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
