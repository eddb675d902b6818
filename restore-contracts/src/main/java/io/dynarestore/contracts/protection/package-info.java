/**
 * Protection: backup policies, schedules and retention, and the events of backups and the change
 * log.
 */
package io.dynarestore.contracts.protection;
