/**
 * Email: mails of restore outcomes and passcode-protected links through SMTP; a link mail's body
 * holds a token and is never logged or dead-lettered.
 */
package io.dynarestore.notifier.email;
