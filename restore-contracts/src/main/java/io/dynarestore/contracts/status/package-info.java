/**
 * Status events on restore.status (one sealed interface) and their fold: RestoreView holds a
 * restore's state, RestoreFold has one rule per event type.
 */
package io.dynarestore.contracts.status;
