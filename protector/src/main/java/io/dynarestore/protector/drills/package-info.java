/**
 * Restore drills (ADR 0044): the restore of a table's latest backup, or of a random restorable second,
 * into a scratch table, asked for on the drill schedule, reported when it ends, its table deleted.
 * Rule: a drill deletes only a table named as its own scratch table.
 */
package io.dynarestore.protector.drills;
