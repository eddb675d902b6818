package io.dynarestore.boot;

import io.dynarestore.core.kafka.TopicDefinitions;

/**
 * What the shared wiring reads from a service's properties record: the topics the service creates
 * when they are missing. A service's {@code @ConfigurationProperties} record implements it.
 */
public interface ServiceSettings {

    /** Replication and partition counts of the topics; null means the local single-broker ones. */
    TopicDefinitions topics();
}
