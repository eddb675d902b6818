/**
 * CSV: the console's export format (header of all columns first), streamed row by row.
 */
package io.dynarestore.core.csv;
