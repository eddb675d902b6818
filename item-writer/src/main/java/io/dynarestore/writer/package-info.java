/**
 * item-writer: the application, its configuration record and beans shared by the feature
 * packages.
 */
package io.dynarestore.writer;
