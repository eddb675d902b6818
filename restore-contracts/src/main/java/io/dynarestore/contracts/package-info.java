/**
 * The contracts: topic names, envelopes and JSON rules every service and every upstream client
 * share; no Spring, no AWS.
 */
package io.dynarestore.contracts;
