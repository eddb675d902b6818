/**
 * Staging: the files a restore reads besides the backup's own, written to the vault before any
 * segment is dispatched: the delta of a point in time (last write per key up to T, and the keys
 * whose backup line it replaces), the sweep of an in-place restore, the filtered copy ImportTable
 * reads. Bounded in memory: keys spill to sorted runs on disk.
 */
package io.dynarestore.planner.staging;
