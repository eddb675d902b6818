/**
 * Restore rules shared by restore-api and restore-planner: request validation at the edge, table
 * options, which restores may be rolled back.
 */
package io.dynarestore.core.restore;
