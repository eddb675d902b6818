/**
 * Capacity: raising a destination's write capacity for a restore and putting it back, whatever
 * became of the restore.
 */
package io.dynarestore.planner.capacity;
