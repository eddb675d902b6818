package io.dynarestore.core.csv;

/**
 * Keeps spreadsheets from running cells as formulas (CSV injection, as OWASP describes it): a
 * cell that begins with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return is
 * written with a leading {@code '}, which spreadsheets show as text. So that reading stays an
 * exact round trip, a cell that begins with {@code '} itself gets one more, and reading drops
 * exactly one leading {@code '} of a guarded cell. Numbers (N cells) are never guarded: no
 * DynamoDB number is a formula, and {@code -5} must stay a number.
 */
final class FormulaGuard {

    private FormulaGuard() {}

    static String guard(String cell) {
        if (cell == null || cell.isEmpty()) {
            return cell;
        }
        char first = cell.charAt(0);
        boolean risky = first == '='
                || first == '+'
                || first == '-'
                || first == '@'
                || first == '\t'
                || first == '\r'
                || first == '\'';
        return risky ? "'" + cell : cell;
    }

    static String unguard(String cell) {
        return cell != null && cell.startsWith("'") ? cell.substring(1) : cell;
    }
}
