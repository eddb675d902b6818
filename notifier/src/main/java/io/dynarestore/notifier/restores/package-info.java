/**
 * Following restore.status: which events become notices for whom (the request's notify block),
 * and the book of email links to mail.
 */
package io.dynarestore.notifier.restores;
