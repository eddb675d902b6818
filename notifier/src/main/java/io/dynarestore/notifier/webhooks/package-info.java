/**
 * Webhooks: signed HTTP posts to allowed addresses only (one WebhookAddresses rule), with a hard
 * deadline and no redirects.
 */
package io.dynarestore.notifier.webhooks;
