/**
 * Rollback: replaying the writers' undo journal of a finished restore in reverse, with consistent
 * reads to check that each item is still what the restore wrote.
 */
package io.dynarestore.planner.undo;
