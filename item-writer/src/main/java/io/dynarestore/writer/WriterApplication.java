package io.dynarestore.writer;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** item-writer: writes segments into DynamoDB; run as many replicas as there are partitions to share. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class WriterApplication {

    /** The service's configuration file is {@code item-writer.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(WriterApplication.class).properties("spring.config.name=item-writer");
    }

    public static void main(String[] args) {
        builder().run(args);
    }
}
