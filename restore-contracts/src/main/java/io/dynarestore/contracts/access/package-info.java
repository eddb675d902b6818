/**
 * Access: the roles a request needs, derived from its source and destination, one rule for REST
 * and Kafka.
 */
package io.dynarestore.contracts.access;
