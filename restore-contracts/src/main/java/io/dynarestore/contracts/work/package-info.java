/**
 * Work items: segments dispatched to writers and exporters; Kafka carries descriptors only, the
 * items stay in S3.
 */
package io.dynarestore.contracts.work;
