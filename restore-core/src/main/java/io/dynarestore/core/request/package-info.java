/**
 * Requests: the system's defaults, and reading commands and requests from Kafka with one
 * validation rule.
 */
package io.dynarestore.core.request;
