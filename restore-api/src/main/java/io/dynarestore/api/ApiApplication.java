package io.dynarestore.api;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** restore-api: the REST face of restores. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ApiApplication {

    /** The service's configuration file is {@code restore-api.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(ApiApplication.class).properties("spring.config.name=restore-api");
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
