/**
 * The chaos suite's helpers: faults injected from outside the services (kills, outages); never in
 * production code.
 */
package io.dynarestore.chaos;
