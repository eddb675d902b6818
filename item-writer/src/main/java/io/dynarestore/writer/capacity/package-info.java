/**
 * Write budgets: how many write units a replica may spend on a destination table per second (its
 * share of the table's budget by the group's lag), slowed by throttling and restored step by step
 * (AIMD).
 */
package io.dynarestore.writer.capacity;
