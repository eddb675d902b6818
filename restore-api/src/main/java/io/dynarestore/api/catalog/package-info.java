/**
 * The catalog: backups, exports and point-in-time windows of a table, read from the vault and
 * authorized by the source's account and table.
 */
package io.dynarestore.api.catalog;
