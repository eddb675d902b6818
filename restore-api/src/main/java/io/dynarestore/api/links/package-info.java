/**
 * Email links: expiring links to a restore's file, opened with a passcode (Crockford base32, from
 * SecureRandom); the link log keeps only hashes of tokens, and no secret is logged.
 */
package io.dynarestore.api.links;
