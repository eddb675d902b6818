/**
 * Notification events on restore.notifications: deliveries to make and their outcomes; only the
 * notifier reads the targets.
 */
package io.dynarestore.contracts.notifications;
