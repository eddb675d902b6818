/**
 * ImportTable: staging a backup's items where DynamoDB's import reads them.
 */
package io.dynarestore.core.imports;
