/**
 * Restore requests: the JSON of POST /restores and of restore.requests, with their defaults,
 * redaction and digest.
 */
package io.dynarestore.contracts.request;
