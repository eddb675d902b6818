package io.dynarestore.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.core.pitr.PitrCoverage;
import io.dynarestore.core.restore.RestoreValidator.Verdict;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UndoCheckTest {

    static final Instant BASE = Instant.parse("2026-12-01T10:00:00Z");
    static final Instant T1 = BASE.plusSeconds(60);

    /** A backup at BASE and the vault's exports of every write up to 10 minutes after it. */
    static final PitrCoverage COVERAGE = PitrCoverage.of(
            List.of(new BackupSummary("b", BASE, null, "000000000000", "us-east-1", "orders", 0, 0, null)),
            List.of(new ExportMetadata(
                    1, "e", "000000000000", "us-east-1", "orders", BASE, BASE.plusSeconds(600), false, 0, null)),
            BASE.plusSeconds(3_600));

    static Source undo(String until, String onConflict) {
        return new Source(
                "000000000000",
                "us-east-1",
                "orders",
                null,
                T1.toString(),
                null,
                new Source.Undo(until, onConflict, null));
    }

    @Test
    void anUndoOfAWindowTheLogHoldsIsAccepted() {
        var request = RestoreRequests.aRestore("u")
                .from(undo(T1.plusSeconds(120).toString(), "OVERWRITE"))
                .inPlace()
                .build();
        assertThat(UndoCheck.problem(request, T1, COVERAGE)).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a window ending before it starts | 2026-12-01T10:00:30Z | LEAVE | INVALID_REQUEST      | /source/undo/until      | must be a whole second after
            a fraction of a second           | 2026-12-01T10:02:00.5Z | LEAVE | INVALID_REQUEST    | /source/undo/until      | whole second
            a window past the log's end      | 2026-12-01T10:20:00Z | LEAVE | POINT_NOT_RESTORABLE | /source/undo/until      | up to 2026-12-01T10:10:00Z
            an unknown conflict policy       | 2026-12-01T10:02:00Z | MERGE | INVALID_REQUEST      | /source/undo/onConflict | neither LEAVE
            """)
    void refusesAnUndoItCannotDoNamingTheFieldAndTheFix(
            String what, String until, String onConflict, RejectionCode code, String field, String detail) {
        var request = RestoreRequests.aRestore("u")
                .from(undo(until, onConflict))
                .inPlace()
                .build();

        Verdict verdict = UndoCheck.problem(request, T1, COVERAGE);

        assertThat(verdict).isInstanceOfSatisfying(Verdict.Problem.class, p -> {
            assertThat(p.code()).isEqualTo(code);
            assertThat(p.errors())
                    .singleElement()
                    .satisfies(e -> assertThat(e.field()).isEqualTo(field));
            assertThat(p.reason()).contains(detail);
        });
    }

    @Test
    void anUndoRevertsTheSourceTableInPlaceOnly() {
        var request = RestoreRequests.aRestore("u")
                .from(undo(T1.plusSeconds(120).toString(), null))
                .intoNewTable("copy")
                .build();
        assertThat(UndoCheck.problem(request, T1, COVERAGE))
                .isInstanceOfSatisfying(
                        Verdict.Problem.class, p -> assertThat(p.reason()).contains("IN_PLACE"));
    }

    @Test
    void anUndoNeedsAPointInTimeNotABackup() {
        var source =
                new Source("000000000000", "us-east-1", "orders", "b", null, null, new Source.Undo("x", null, null));
        var request = RestoreRequests.aRestore("u").from(source).inPlace().build();
        assertThat(UndoCheck.problem(request, null, null))
                .isInstanceOfSatisfying(
                        Verdict.Problem.class,
                        p -> assertThat(p.errors())
                                .singleElement()
                                .satisfies(e -> assertThat(e.field()).isEqualTo("/source/undo")));
    }
}
