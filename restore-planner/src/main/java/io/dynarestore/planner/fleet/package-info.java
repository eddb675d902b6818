/**
 * Planning shared by the fleet: a large point-in-time delta is split by key hash into parts that
 * whichever planner replicas are assigned them build at once, over {@code restore.planning}. Rule:
 * Kafka carries descriptors only; what a part reads and writes lies under the restore's staging
 * folder in the vault, and a part is written whole before its outcome says so.
 */
package io.dynarestore.planner.fleet;
