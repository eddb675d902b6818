/**
 * Which tables this replica protects (the partitions of {@code restore.protection} it owns) and
 * the guard that runs each one: one table, one owner, one step at a time.
 */
package io.dynarestore.protector.tables;
