/**
 * DynamoDB's own exports (ExportTableToPointInTime), started and waited for on behalf of the native
 * backup and change-log methods. Rule: every export is started with a client token derived from
 * what it is for, so that a replica that takes a table over mid-export finds the same export
 * instead of starting a second one.
 */
package io.dynarestore.protector.exports;
