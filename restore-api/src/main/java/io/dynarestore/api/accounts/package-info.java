/**
 * The account registry: accounts and regions restores may use, the role each is reached through
 * and the ExternalId its trust policy must demand; it lists configuration and calls no AWS API.
 */
package io.dynarestore.api.accounts;
