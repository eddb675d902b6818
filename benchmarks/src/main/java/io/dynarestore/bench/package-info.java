/**
 * Benchmarks: bench programs that print ratios against a baseline measured in the same run
 * (docs/benchmarks.md); never part of a service.
 */
package io.dynarestore.bench;
