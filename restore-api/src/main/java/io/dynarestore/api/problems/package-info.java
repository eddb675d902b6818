/**
 * Problem details (RFC 9457): every refusal of the API names the problem and the fix; no stack
 * trace leaves the service.
 */
package io.dynarestore.api.problems;
