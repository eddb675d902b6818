/**
 * The local default: the infrastructure (Kafka, dynalite, S3Proxy) and every service started on
 * one machine, with demo data; tests and production do not use it.
 */
package io.dynarestore.local;
