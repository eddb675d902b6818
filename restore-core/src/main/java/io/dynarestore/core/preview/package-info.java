/**
 * Preview: reading the first matching items of a backup, bounded.
 */
package io.dynarestore.core.preview;
