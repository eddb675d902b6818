/**
 * The protector service: its configuration and wiring. Only {@link io.dynarestore.protector.tables.Protector}
 * is started from here; everything else is reached through it.
 */
package io.dynarestore.protector;
