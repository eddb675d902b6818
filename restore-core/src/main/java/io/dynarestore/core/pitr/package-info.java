/**
 * Point in time: which seconds are restorable (coverage), the last write per key up to T (delta,
 * skip sets) and the key hash that spreads keys over segments. Staging the files a restore reads
 * is the planner's.
 */
package io.dynarestore.core.pitr;
