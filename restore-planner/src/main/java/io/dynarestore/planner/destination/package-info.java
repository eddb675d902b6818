/**
 * Destinations: preparing tables (create, check, native restores) as the request's destination
 * says.
 */
package io.dynarestore.planner.destination;
