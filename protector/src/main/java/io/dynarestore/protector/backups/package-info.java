/** Full backups: which slot is due (once per slot, on every replica alike) and the paced Scan that takes it. */
package io.dynarestore.protector.backups;
