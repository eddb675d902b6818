package io.dynarestore.core.csv;

/**
 * A column of a granular-recovery CSV: one attribute name with one DynamoDB type, headed
 * {@code name (TYPE)}, guarded like every cell against running as a formula.
 */
public record CsvColumn(String name, String type) {

    public String header() {
        return FormulaGuard.guard(name + " (" + type + ")");
    }

    /** The column of a header cell {@code name (TYPE)}; the name may itself hold spaces and brackets. */
    public static CsvColumn ofHeader(String written) {
        String cell = FormulaGuard.unguard(written);
        int open = cell.lastIndexOf(" (");
        if (open < 0 || !cell.endsWith(")")) {
            throw new IllegalArgumentException("'" + cell + "' is not a column header of the form 'name (TYPE)'");
        }
        return new CsvColumn(cell.substring(0, open), cell.substring(open + 2, cell.length() - 1));
    }
}
