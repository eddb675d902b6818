/**
 * Granular-recovery files: a segment of a backup becomes CSV rows streamed to the vault, memory
 * flat; an export is announced once, by ExportCompleted, after every part is written.
 */
package io.dynarestore.exporter.files;
