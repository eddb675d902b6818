/**
 * Point in time: which seconds are restorable (coverage), the image of a table at T (delta, skip
 * sets), the in-place sweep.
 */
package io.dynarestore.core.pitr;
