package io.dynarestore.planner.fleet;

import io.dynarestore.planner.staging.DeltaStager;
import io.dynarestore.planner.staging.SweepStager;

/** What became of a part: the part staged (a delta's {@code staged} or a sweep's {@code sweep}), or why it could not be ({@code failure}). */
record PartOutcome(int part, DeltaStager.StagedDelta staged, SweepStager.StagedSweep sweep, String failure) {

    static PartOutcome built(int part, DeltaStager.StagedDelta staged) {
        return new PartOutcome(part, staged, null, null);
    }

    static PartOutcome swept(int part, SweepStager.StagedSweep sweep) {
        return new PartOutcome(part, null, sweep, null);
    }

    static PartOutcome failed(int part, String failure) {
        return new PartOutcome(part, null, null, failure);
    }
}
