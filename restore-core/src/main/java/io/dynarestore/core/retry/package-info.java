/**
 * Retries: one Backoff for every retry loop, and the pacer that spreads write units over time.
 */
package io.dynarestore.core.retry;
