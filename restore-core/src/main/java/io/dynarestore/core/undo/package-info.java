/**
 * The undo journal: prior images saved before a batch changes them, read back for rollbacks.
 */
package io.dynarestore.core.undo;
