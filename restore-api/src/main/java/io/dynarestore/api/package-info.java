/**
 * restore-api: the application, its configuration and web setup; endpoints are in the feature
 * packages.
 */
package io.dynarestore.api;
