/**
 * What the services know of a destination table's settings: the options a request may give and
 * the tag that marks a table a restore created. Creating and finishing tables is the planner's.
 */
package io.dynarestore.core.table;
