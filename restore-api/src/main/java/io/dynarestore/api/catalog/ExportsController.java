package io.dynarestore.api.catalog;

import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.ExportLocation;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.NativeExports;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Instant;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import tools.jackson.databind.JsonNode;

/**
 * {@code /tables/{table}/exports}: native DynamoDB exports registered where they lie (a full
 * export becomes a backup, an incremental one point-in-time coverage), and the table's
 * incremental exports.
 */
@RestController
class ExportsController {

    private final VaultCatalog catalog;
    private final AwsClients aws;

    ExportsController(VaultCatalog catalog, AwsClients aws) {
        this.catalog = catalog;
        this.aws = aws;
    }

    /**
     * @param s3Uri            the export's folder: s3://bucket/prefix/AWSDynamoDB/ExportId/
     * @param tableDescription the Table member of {@code aws dynamodb describe-table}; when absent, the
     *                         live table is described
     * @param expiresAt        when a full export stops being restorable (absent: never)
     */
    record Registration(String s3Uri, String account, String region, JsonNode tableDescription, Instant expiresAt) {
    }

    @Operation(summary = "Register a native DynamoDB export without copying it",
            description = "A FULL_EXPORT becomes a backup (its ExportId is the backupId); an INCREMENTAL_EXPORT "
                    + "becomes point-in-time coverage. Answers 201, or 200 when it was registered already.")
    @PostMapping(path = "/tables/{table}/exports", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<NativeExports.Registered> register(@PathVariable String table, @RequestBody Registration body) {
        if (body == null || body.s3Uri() == null) {
            throw new ApiProblem(400, "INVALID_REQUEST", "Give s3Uri, the export's folder such as "
                    + "s3://bucket/prefix/AWSDynamoDB/<ExportId>/.", null);
        }
        var ref = TableRefs.of(table, body.account(), body.region(), aws);
        ExportLocation location;
        try {
            location = ExportLocation.parse(body.s3Uri());
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(400, "INVALID_REQUEST", e.getMessage(), null);
        }
        var exports = new NativeExports(catalog);
        try {
            var summary = exports.summary(location);
            TableDescription description = null;
            List<Tag> tags = List.of();
            if (!"INCREMENTAL_EXPORT".equals(summary.exportType())) {
                if (body.tableDescription() != null) {
                    description = SdkJson.fromJson(body.tableDescription(), TableDescription.builder());
                } else {
                    var dynamo = aws.dynamo(ref.account(), ref.region());
                    try {
                        description = dynamo.describeTable(b -> b.tableName(table)).table();
                        String arn = description.tableArn();
                        tags = dynamo.listTagsOfResource(b -> b.resourceArn(arn)).tags();
                    } catch (ResourceNotFoundException e) {
                        throw new NativeExports.RegistrationException("Table " + table + " does not exist in account "
                                + ref.account() + " region " + ref.region() + ", so it cannot be described; give "
                                + "tableDescription (the Table member of 'aws dynamodb describe-table').");
                    }
                }
            }
            var registered = exports.register(location, ref.account(), ref.region(), table, description, tags,
                    body.expiresAt());
            return ResponseEntity.status(registered.alreadyRegistered() ? 200 : 201).body(registered);
        } catch (NativeExports.RegistrationException e) {
            throw new ApiProblem(422, "EXPORT_NOT_REGISTERED", e.getMessage(), null);
        }
    }

    @Operation(summary = "A table's incremental exports, oldest first")
    @GetMapping(path = "/tables/{table}/exports", produces = MediaType.APPLICATION_JSON_VALUE)
    List<ExportMetadata> list(@PathVariable String table, @RequestParam(required = false) String account,
                              @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws);
        return catalog.listExports(ref.account(), ref.region(), table);
    }
}
