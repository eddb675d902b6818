/**
 * notifier: the application and its configuration; deliveries leave through the feature packages.
 */
package io.dynarestore.notifier;
