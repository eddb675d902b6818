package io.dynarestore.api.catalog;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.problems.ApiProblem;
import io.dynarestore.contracts.access.Access;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.ExportLocation;
import io.dynarestore.core.vault.ExportMetadata;
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
    private final NativeExports exports;

    ExportsController(VaultCatalog catalog, AwsClients aws, ApiProperties properties) {
        this.catalog = catalog;
        this.aws = aws;
        this.exports = new NativeExports(
                catalog,
                properties.exports().allowedLocations(),
                properties.exports().retention());
    }

    /**
     * @param s3Uri            the export's folder: s3://bucket/prefix/AWSDynamoDB/ExportId/
     * @param tableDescription the output of {@code aws dynamodb describe-table} (or its Table member), as any
     *                         AWS CLI or SDK prints it; when absent, the live table is described
     * @param expiresAt        when a full export stops being restorable (absent: after api.exports.retention)
     */
    record Registration(String s3Uri, String account, String region, JsonNode tableDescription, Instant expiresAt) {}

    @Operation(
            summary = "Register a native DynamoDB export without copying it",
            description = "A FULL_EXPORT becomes a backup (its ExportId is the backupId); an INCREMENTAL_EXPORT "
                    + "becomes point-in-time coverage. Needs the role register-exports (and cross-account for "
                    + "another account). The export must lie in a configured export location and be an export of "
                    + "this very table (its manifest's tableArn). Answers 201, or 200 when it was registered already.")
    @PostMapping(
            path = "/tables/{table}/exports",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<NativeExports.Registered> register(@PathVariable String table, @RequestBody Registration body) {
        if (body == null || body.s3Uri() == null) {
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    "Give s3Uri, the export's folder such as " + "s3://bucket/prefix/AWSDynamoDB/<ExportId>/.",
                    null);
        }
        var ref = TableRefs.of(
                table,
                body.account(),
                body.region(),
                aws,
                Access::toRegisterExports,
                "Registering an export in account");
        ExportLocation location;
        try {
            location = ExportLocation.parse(body.s3Uri());
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(400, "INVALID_REQUEST", e.getMessage(), null);
        }
        // what the body says is checked before anything is read on its word
        TableDescription given = body.tableDescription() == null ? null : description(body.tableDescription());
        try {
            var summary = exports.summary(location);
            TableDescription description = null;
            List<Tag> tags = List.of();
            if (!"INCREMENTAL_EXPORT".equals(summary.exportType())) {
                if (given != null) {
                    description = given;
                } else {
                    var dynamo = aws.dynamo(ref.account(), ref.region());
                    try {
                        description =
                                dynamo.describeTable(b -> b.tableName(table)).table();
                        String arn = description.tableArn();
                        tags = dynamo.listTagsOfResource(b -> b.resourceArn(arn))
                                .tags();
                    } catch (ResourceNotFoundException e) {
                        throw new NativeExports.RegistrationException("Table " + table + " does not exist in account "
                                + ref.account() + " region " + ref.region() + ", so it cannot be described; give "
                                + "tableDescription (the Table member of 'aws dynamodb describe-table').");
                    }
                }
            }
            var registered = exports.register(
                    location, summary, ref.account(), ref.region(), table, description, tags, body.expiresAt());
            return ResponseEntity.status(registered.alreadyRegistered() ? 200 : 201)
                    .body(registered);
        } catch (NativeExports.RegistrationException e) {
            throw new ApiProblem(422, "EXPORT_NOT_REGISTERED", e.getMessage(), null);
        }
    }

    /** The description as the AWS CLI or an SDK printed it; one that cannot be read is a 400 naming its member. */
    private static TableDescription description(JsonNode json) {
        try {
            return SdkJson.tableDescription(json);
        } catch (SdkJson.InvalidJsonException e) {
            String field = "/tableDescription" + e.path();
            throw new ApiProblem(
                    400,
                    "INVALID_REQUEST",
                    field.substring(1) + " " + e.reason() + ". Give the output "
                            + "of 'aws dynamodb describe-table' as the AWS CLI (v1 or v2) or an SDK prints it.",
                    List.of(new FieldError(field, e.reason())));
        }
    }

    @Operation(summary = "A table's incremental exports, oldest first")
    @GetMapping(path = "/tables/{table}/exports", produces = MediaType.APPLICATION_JSON_VALUE)
    List<ExportMetadata> list(
            @PathVariable String table,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws);
        return catalog.listExports(ref.account(), ref.region(), table);
    }
}
