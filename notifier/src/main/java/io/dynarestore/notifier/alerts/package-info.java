/**
 * Following restore.protection.events: a failed restore drill becomes an alert to the operators'
 * targets, which live in the notifier's configuration and never on a topic.
 */
package io.dynarestore.notifier.alerts;
