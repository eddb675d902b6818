/**
 * Deliveries: each notification is tried until delivered or abandoned (one Backoff), recorded
 * once on restore.notifications, and its target never logged.
 */
package io.dynarestore.notifier.deliveries;
