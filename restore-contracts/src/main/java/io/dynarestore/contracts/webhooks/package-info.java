/**
 * Webhooks: where they may be posted (WebhookTargets, the one rule applied at intake and again by
 * the notifier) and how they are signed.
 */
package io.dynarestore.contracts.webhooks;
