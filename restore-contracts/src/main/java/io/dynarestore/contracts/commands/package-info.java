/**
 * Commands on restore.commands: cancel and roll back, keyed by restore id, co-partitioned with
 * the status.
 */
package io.dynarestore.contracts.commands;
