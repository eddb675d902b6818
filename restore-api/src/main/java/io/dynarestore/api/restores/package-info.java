/**
 * Restores and tasks: submissions validated once at the edge and published as RestoreRequested;
 * the tasks view folds restore.status (RestoreView) and answers with RestoreSummary.
 */
package io.dynarestore.api.restores;
