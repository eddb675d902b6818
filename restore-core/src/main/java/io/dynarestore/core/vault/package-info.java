/**
 * The vault: its layout, writers and readers of backups and exports, the catalog; data files are
 * streamed, never loaded whole.
 */
package io.dynarestore.core.vault;
