/**
 * exporter: the application and its wiring; the work itself is in its feature packages.
 */
package io.dynarestore.exporter;
