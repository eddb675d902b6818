package io.dynarestore.planner.fleet;

import io.dynarestore.planner.staging.DeltaStager;

/** What became of a part: the part staged, or why it could not be ({@code failure}), never both. */
record PartOutcome(int part, DeltaStager.StagedDelta staged, String failure) {

    static PartOutcome built(int part, DeltaStager.StagedDelta staged) {
        return new PartOutcome(part, staged, null);
    }

    static PartOutcome failed(int part, String failure) {
        return new PartOutcome(part, null, failure);
    }
}
