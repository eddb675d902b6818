/**
 * Record filters: one evaluator of key and attribute conditions, compiled once per key schema.
 */
package io.dynarestore.core.filter;
