/**
 * An item's history ({@code GET /tables/{t}/items/history}): every version of one key, oldest first,
 * from the base backup before the first instant asked and the change log after it, read only as far
 * as one page needs. The replay ({@code ItemHistory}) sees the vault only through
 * {@code HistoryVault}, so that it is tested against a brute-force replay without S3.
 */
package io.dynarestore.api.history;
