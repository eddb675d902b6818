package io.dynarestore.exporter;

import io.dynarestore.boot.VaultReaderSettings;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import java.time.Duration;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * exporter: writes granular-recovery CSV files. It takes export work items off
 * {@code restore.exports}, writes the matching items of a backup to one CSV object in the vault
 * bucket, and reports {@code ExportCompleted} (or {@code SegmentFailed}) on {@code restore.status}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ExporterApplication {

    /** The service's configuration file is {@code exporter.yml} (see ADR 0003). */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(ExporterApplication.class).properties("spring.config.name=exporter");
    }

    public static void main(String[] args) {
        builder().run(args);
    }

    /**
     * Configuration of exporter, under {@code exporter}.
     *
     * @param aws       accounts, regions, endpoints and the vault's S3
     * @param vault     the vault's bucket and root
     * @param topics    replication and partition counts of the topics it may create
     * @param group     its consumer group
     * @param partSize  the size of each multipart-upload part (an export under way holds two)
     * @param maxExport the longest an export may take before the group gives its work item to another member
     * @param copyPartsInS3 whether the merge of a split export has S3 copy its parts into the file (UploadPartCopy) instead of streaming them through the exporter
     */
    @ConfigurationProperties("exporter")
    public record ExporterProperties(
            AwsSettings aws,
            VaultSettings vault,
            TopicDefinitions topics,
            @DefaultValue("exporter") String group,
            @DefaultValue("8MB") DataSize partSize,
            @DefaultValue("2h") Duration maxExport,
            @DefaultValue("true") boolean copyPartsInS3)
            implements VaultReaderSettings {}
}
