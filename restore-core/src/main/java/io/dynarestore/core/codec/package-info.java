/**
 * DynamoDB JSON: one codec, item equality, sizes and digests, as every service computes them.
 */
package io.dynarestore.core.codec;
