/**
 * Protection policies on REST: validated here with {@code ProtectionSet}'s one rule, published to
 * the compacted {@code restore.protection} topic, read back from every replica's fold of it.
 */
package io.dynarestore.api.protection;
