package io.dynarestore.planner;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.vault.VaultCatalog;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PlannerConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    RestoreValidator restoreValidator(VaultCatalog catalog, AwsClients aws, Clock clock, PlannerProperties properties) {
        return new RestoreValidator(
                catalog, aws, clock, properties.webhooks().addresses(), properties.maxCapacityUnits());
    }
}
