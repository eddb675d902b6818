/**
 * Preview: the first items of a backup that a filter selects, bounded in items, bytes and time.
 */
package io.dynarestore.api.preview;
