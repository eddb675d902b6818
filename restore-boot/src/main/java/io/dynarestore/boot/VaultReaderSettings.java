package io.dynarestore.boot;

import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.vault.VaultSettings;

/**
 * The settings of a service that reads the vault: its AWS accounts, regions and endpoints, and the
 * vault's bucket and root. The shared wiring builds its {@code AwsClients} and {@code VaultCatalog}
 * from them.
 */
public interface VaultReaderSettings extends ServiceSettings {

    AwsSettings aws();

    VaultSettings vault();
}
