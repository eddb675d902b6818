/**
 * The testkit: real components for tests (Kafka, dynalite, S3Proxy) and endpoints that speak
 * AWS's protocol where dynalite lacks an API; never in a service's runtime classpath.
 */
package io.dynarestore.testkit;
