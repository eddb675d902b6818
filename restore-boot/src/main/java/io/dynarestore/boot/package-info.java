/**
 * The Spring wiring every service shares, as one auto-configuration. Rule: only beans that at least
 * two services build the same way; no service logic, and nothing a service must configure to start.
 */
package io.dynarestore.boot;
