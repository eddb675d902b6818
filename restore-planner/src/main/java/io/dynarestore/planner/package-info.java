/**
 * restore-planner: the application, its configuration record and beans.
 */
package io.dynarestore.planner;
