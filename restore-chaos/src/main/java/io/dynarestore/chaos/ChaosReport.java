package io.dynarestore.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The suite's table: one row per run and a total, in Markdown so that it pastes into notes. */
final class ChaosReport {

    private final List<ChaosRun.Result> results = new ArrayList<>();

    void add(ChaosRun.Result result) {
        results.add(result);
    }

    List<ChaosRun.Result> results() {
        return results;
    }

    List<ChaosRun.Outcome> outcomes() {
        return results.stream().flatMap(r -> r.outcomes().stream()).toList();
    }

    long faults() {
        return results.stream().mapToLong(r -> r.faults().size()).sum();
    }

    String table() {
        var sb = new StringBuilder();
        sb.append("| run | faults injected | struck running restores | restores | items expected | lost | extra "
                + "| completed | failed (reason) | no end | capacity put back | count reported ≠ items "
                + "| rolled back to as before |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (var r : results) {
            sb.append(row(
                    String.valueOf(r.run()),
                    r.faults().stream().map(Enum::name).collect(Collectors.joining(", ")),
                    r.faultsDuringRestores(),
                    r.outcomes(),
                    List.of(r)));
        }
        sb.append(row(
                "**" + results.size() + " runs**",
                faults() + " faults",
                results.stream().mapToInt(ChaosRun.Result::faultsDuringRestores).sum(),
                outcomes(),
                results));
        for (var o : outcomes()) {
            if (!o.completed()) {
                sb.append("\n")
                        .append(o.restoreId())
                        .append(" (")
                        .append(o.kind())
                        .append("): ")
                        .append(o.end())
                        .append(o.reason() == null ? "" : " — " + o.reason());
            }
        }
        return sb.toString();
    }

    private static String row(
            String run, String faults, int struck, List<ChaosRun.Outcome> outcomes, List<ChaosRun.Result> runs) {
        long raised = outcomes.stream().filter(o -> o.capacityPutBack() != null).count();
        long putBack = outcomes.stream()
                .filter(o -> Boolean.TRUE.equals(o.capacityPutBack()))
                .count();
        long tried = runs.stream().filter(r -> r.rollback() != null).count();
        long clean =
                runs.stream().filter(r -> Boolean.TRUE.equals(r.rollback())).count();
        return "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d of %d | %d | %d of %d |\n"
                .formatted(
                        run,
                        faults,
                        struck,
                        outcomes.size(),
                        outcomes.stream().mapToLong(ChaosRun.Outcome::expected).sum(),
                        outcomes.stream().mapToLong(ChaosRun.Outcome::lost).sum(),
                        outcomes.stream().mapToLong(ChaosRun.Outcome::extra).sum(),
                        outcomes.stream().filter(ChaosRun.Outcome::completed).count(),
                        outcomes.stream()
                                .filter(ChaosRun.Outcome::failedWithReason)
                                .count(),
                        outcomes.stream()
                                .filter(o -> o.end().startsWith("none"))
                                .count(),
                        putBack,
                        raised,
                        outcomes.stream().filter(ChaosRun.Outcome::countOff).count(),
                        clean,
                        tried);
    }
}
