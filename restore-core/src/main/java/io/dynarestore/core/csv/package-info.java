/**
 * CSV: the console's export format (columns, cells that cannot run as formulas), as the exporter
 * writes it and a reader parses it. Writing an export to S3 is the exporter's.
 */
package io.dynarestore.core.csv;
