/**
 * Security: who the caller is (API key or JWT) and what roles they hold; every read of backup
 * data is authorized by its source.
 */
package io.dynarestore.api.security;
