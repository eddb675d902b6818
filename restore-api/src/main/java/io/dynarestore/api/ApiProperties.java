package io.dynarestore.api;

import io.dynarestore.boot.VaultReaderSettings;
import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.access.MessageSignature;
import io.dynarestore.contracts.access.Role;
import io.dynarestore.core.aws.AwsSettings;
import io.dynarestore.core.kafka.TopicDefinitions;
import io.dynarestore.core.vault.VaultSettings;
import io.dynarestore.core.webhooks.WebhookSettings;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of restore-api, under {@code api}.
 *
 * @param aws            accounts, regions, endpoints and the vault's S3
 * @param vault          the bucket and root prefix of the vault
 * @param topics         replication and partition counts of the topics it may create
 * @param verdictTimeout how long {@code POST /restores} waits for the planner's first answer
 * @param links          passcode-protected email links to granular-recovery files
 * @param events         Server-Sent Event streams of restores
 * @param security       who may call the API and with which roles
 * @param signingKey     the key that proves restore-api as the publisher of what it puts on
 *                       {@code restore.requests} and {@code restore.commands}; the planner holds it as
 *                       {@code planner.access.keys.restore-api} (at least 32 characters)
 * @param webhooks       where webhooks may go (the rule the planner and the notifier apply too)
 * @param exports        where native exports may be registered from
 * @param limits         what one caller may take of the service
 * @param views          how long ended restores stay in the tasks view
 */
@ConfigurationProperties("api")
public record ApiProperties(
        AwsSettings aws,
        VaultSettings vault,
        TopicDefinitions topics,
        @DefaultValue("5s") Duration verdictTimeout,
        @DefaultValue Links links,
        @DefaultValue Events events,
        @DefaultValue Security security,
        String signingKey,
        @DefaultValue WebhookSettings webhooks,
        @DefaultValue Exports exports,
        @DefaultValue Limits limits,
        @DefaultValue Views views)
        implements VaultReaderSettings {

    public ApiProperties {
        String weak = MessageSignature.weakness(signingKey);
        if (weak != null) {
            throw new IllegalArgumentException("api.signing-key " + weak + "; set it (env RESTORE_API_SIGNING_KEY) to "
                    + "a random secret of at least " + MessageSignature.MIN_KEY_LENGTH
                    + " characters, and give the planner the same as planner.access.keys.restore-api");
        }
    }

    /**
     * @param allowedLocations buckets or bucket prefixes that DynamoDB exports into, from which exports may
     *                         be registered (never the vault itself)
     * @param retention        how long a full export registered without expiresAt stays restorable
     */
    public record Exports(
            List<String> allowedLocations,
            @DefaultValue("35d") Duration retention) {
        public Exports {
            allowedLocations = allowedLocations == null ? List.of() : List.copyOf(allowedLocations);
        }
    }

    /**
     * @param submissionsPerMinute restores (and cancels, rollbacks) one caller may submit per minute, on average
     * @param submissionBurst      how many of them may come at once
     * @param streamsPerCaller     event streams one caller may hold open on one replica
     * @param previewBytes         the most item bytes one preview answers with
     * @param previewMemory        the most memory one point-in-time preview's delta may take
     * @param maxCapacityUnits     the most read or write capacity units a restored table may ask for
     * @param callers              callers whose rate is tracked at once (the least recently seen are forgotten)
     */
    public record Limits(
            @DefaultValue("30") int submissionsPerMinute,
            @DefaultValue("10") int submissionBurst,
            @DefaultValue("4") int streamsPerCaller,
            @DefaultValue("4MB") DataSize previewBytes,
            @DefaultValue("64MB") DataSize previewMemory,
            @DefaultValue("40000") long maxCapacityUnits,
            @DefaultValue("10000") int callers) {}

    /**
     * @param retainEnded how long an ended restore stays in the view; set it to at least the retention of
     *                    {@code restore.status}, whose events would bring it back on a restart
     * @param maxEnded    the most ended restores kept; the oldest go first
     */
    public record Views(
            @DefaultValue("8d") Duration retainEnded,
            @DefaultValue("200000") int maxEnded) {}

    /**
     * Authentication and the roles of callers ({@code read}, {@code restore}, {@code restore-in-place},
     * {@code restore-overwrite}, {@code cross-account}).
     *
     * @param mode    {@code jwt}: OAuth2 bearer tokens checked against the issuer's keys
     *                ({@code spring.security.oauth2.resourceserver.jwt.*}); {@code api-key}: static keys
     *                in the {@code X-Api-Key} header
     * @param apiKeys the keys of {@code api-key} mode
     * @param jwt     where a token's roles and name are
     */
    public record Security(
            @DefaultValue("jwt") Mode mode,
            List<ApiKey> apiKeys,
            @DefaultValue Jwt jwt) {
        public Security {
            apiKeys = apiKeys == null ? List.of() : List.copyOf(apiKeys);
            if (mode == Mode.API_KEY && apiKeys.isEmpty()) {
                throw new IllegalArgumentException("api.security.mode is api-key but api.security.api-keys is empty; "
                        + "add a key (name, key or key-sha256, roles) or use mode jwt");
            }
        }

        public enum Mode {
            JWT,
            API_KEY
        }
    }

    /**
     * One static key.
     *
     * @param name      who holds it (the caller's name in logs and {@code requestedBy})
     * @param key       the key itself, at least 16 characters; or
     * @param keySha256 its SHA-256 in hex, so that the configuration need not hold the key
     * @param roles     what its holder may do
     */
    public record ApiKey(String name, String key, String keySha256, List<String> roles) {
        public ApiKey {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("every api.security.api-keys entry needs a name");
            }
            if ((key == null || key.isBlank()) == (keySha256 == null || keySha256.isBlank())) {
                throw new IllegalArgumentException("api key '" + name + "' needs exactly one of key and key-sha256");
            }
            if (key != null && !key.isBlank() && key.length() < 16) {
                throw new IllegalArgumentException("api key '" + name + "' is shorter than 16 characters");
            }
            if (keySha256 != null && !keySha256.isBlank() && !keySha256.matches("[0-9a-fA-F]{64}")) {
                throw new IllegalArgumentException("key-sha256 of api key '" + name + "' is not 64 hex digits");
            }
            roles = roles == null ? List.of() : List.copyOf(roles);
            roles.forEach(role -> Role.of(role, "api key '" + name + "'"));
        }
    }

    /**
     * Which tokens are taken, and where a JWT says who its subject is and what it may do.
     *
     * @param issuer         the {@code iss} every token must carry (required); also where the keys are
     *                       discovered unless {@code jwkSetUri} is given
     * @param audience       an {@code aud} every token must carry (required), so that a token issued to
     *                       another client is not taken
     * @param jwkSetUri      where the issuer's keys are (optional)
     * @param algorithms     the signature algorithms taken (pinned, so that no token chooses its own)
     * @param rolesClaim     a claim holding role names (a list, or a space-separated string such as {@code scope})
     * @param rolePrefix     the prefix role names carry in that claim, dropped; names without it are not roles,
     *                       so that a generic {@code read} scope of another client is not taken
     * @param principalClaim the claim naming the caller
     */
    public record Jwt(
            String issuer,
            String audience,
            String jwkSetUri,
            @DefaultValue("RS256") List<String> algorithms,
            @DefaultValue("roles") String rolesClaim,
            @DefaultValue("dynarestore:") String rolePrefix,
            @DefaultValue("sub") String principalClaim) {}

    /**
     * Event streams.
     *
     * @param maxStreams  streams one replica serves at a time (each holds a Kafka consumer)
     * @param maxDuration longest life of one stream; a client reconnects with Last-Event-ID
     * @param heartbeat   comment sent when nothing else was, so that proxies keep the stream open
     */
    public record Events(
            @DefaultValue("200") int maxStreams,
            @DefaultValue("1h") Duration maxDuration,
            @DefaultValue("15s") Duration heartbeat) {}

    /**
     * Email links.
     *
     * @param expiry   how long a link opens the file after it is issued; shorter than the retention
     *                 of {@code restore.links}, which holds its tries
     * @param maxTries wrong passcodes after which a link locks
     * @param logWait  how long a try waits to read itself back from {@code restore.links}
     */
    public record Links(
            @DefaultValue("7d") Duration expiry,
            @DefaultValue("5") int maxTries,
            @DefaultValue("10s") Duration logWait) {
        public Links {
            if (expiry.isNegative() || expiry.isZero() || expiry.compareTo(Topic.LINKS_RETENTION.minusDays(1)) > 0) {
                throw new IllegalArgumentException("api.links.expiry is " + expiry + "; it must be positive and "
                        + "at most " + Topic.LINKS_RETENTION.minusDays(1).toDays()
                        + " days, so that restore.links still holds a link's tries when it expires");
            }
            if (maxTries < 1) {
                throw new IllegalArgumentException("api.links.max-tries must be at least 1, not " + maxTries);
            }
        }
    }
}
