/**
 * Restores: the planner loop owns the restores of its partitions, plans each, dispatches its
 * segments, completes and verifies it, cancels and rolls back.
 */
package io.dynarestore.planner.restore;
