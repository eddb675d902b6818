/**
 * Destinations: preparing tables as the request's destination says (the spec from the backup and
 * the request, create, wait until active, check, native restores) and finishing them with the
 * settings only a later call can give.
 */
package io.dynarestore.planner.destination;
