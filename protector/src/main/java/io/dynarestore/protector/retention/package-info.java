/** Retention: what is deleted when, marker first, so that nothing half-deleted is ever listed. */
package io.dynarestore.protector.retention;
