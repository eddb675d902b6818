package io.dynarestore.planner;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** restore-planner: validation, planning, destination preparation, dispatch and completion. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PlannerApplication {

    /** The service's configuration file is {@code restore-planner.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(PlannerApplication.class).properties("spring.config.name=restore-planner");
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
