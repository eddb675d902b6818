/**
 * Kafka plumbing the services share: topic definitions, publishing, reading a topic to its end,
 * dead letters with rejection events, consumer threads that report their health.
 */
package io.dynarestore.core.kafka;
