/**
 * Destination tables: their specs from the backup and the request, waiting until they are active,
 * the settings only a later call can give (finishing), consistent reads.
 */
package io.dynarestore.core.table;
