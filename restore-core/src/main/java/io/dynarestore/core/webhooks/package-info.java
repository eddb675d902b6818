/**
 * Webhook settings and addresses as the services resolve them, under the rule of contracts'
 * WebhookTargets.
 */
package io.dynarestore.core.webhooks;
