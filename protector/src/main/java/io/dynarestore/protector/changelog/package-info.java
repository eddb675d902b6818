/**
 * The change log from DynamoDB Streams into the vault's incremental-export layout. Rule: an export
 * is listed only with the checkpoint that follows it, and a position the stream no longer holds is
 * a reported gap, never a skip.
 */
package io.dynarestore.protector.changelog;
