package io.dynarestore.protector.changelog;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.vault.ExportMetadata.ShardGroup;
import io.dynarestore.core.vault.VaultLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Which shard group of a count each shard of a table's stream belongs to (ADR 0025), so that one
 * table's stream is captured by several replicas, each reading the shards of one group. A shard
 * belongs to its parent's group (a key moves from a shard to its children, so each key's writes
 * stay in one group and in order); a shard with no parent known belongs to a hash of its id.
 *
 * <p>The parent of an old shard is trimmed from the stream after a day, so the rule alone would
 * give the shard another group then. Group 0 therefore writes the assignment into the vault
 * ({@code _shard-groups-of<count>.json} beside the exports) whenever it assigns a new shard, and
 * every group reads it before it applies the rule to a shard the file does not name yet: a shard
 * named once keeps its group. The file names only shards the stream still lists.
 */
public final class ShardGroups {

    /** The vault's record of the assignment. */
    record Assignment(String streamArn, int of, Instant listedAt, Map<String, Integer> groups) {
        Assignment {
            groups = groups == null ? Map.of() : Map.copyOf(groups);
        }
    }

    /**
     * Where a group's chain began again ({@code _shard-groups-of<n>-started-g<i>.json}): written when its
     * capture starts at the stream's head (first, or after a gap), so that the table's owner takes a
     * backup from which every group's chain goes on.
     */
    public record Started(String streamArn, Instant from) {}

    private final S3Client s3;
    private final VaultLayout layout;
    private final String key;
    private final String startedPrefix;
    private final ShardGroup group;
    private Assignment known;
    private String etag;

    ShardGroups(S3Client s3, VaultLayout layout, String account, String region, String table, ShardGroup group) {
        this.s3 = s3;
        this.layout = layout;
        this.group = group;
        this.key = layout.exportsPrefix(account, region, table) + "_shard-groups-of" + group.of() + ".json";
        this.startedPrefix = startedPrefix(layout, account, region, table, group.of());
    }

    private static String startedPrefix(VaultLayout layout, String account, String region, String table, int of) {
        return layout.exportsPrefix(account, region, table) + "_shard-groups-of" + of + "-started-g";
    }

    /** Records that this group's chain begins (again) at {@code from}. */
    void started(String streamArn, Instant from) {
        s3.putObject(
                b -> b.bucket(layout.bucket())
                        .key(startedPrefix + group.index() + ".json")
                        .contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(new Started(streamArn, from))));
    }

    /** Where each group's chain of {@code of} last began (null for a group that has not started). */
    public static Started[] starts(
            S3Client s3, VaultLayout layout, String account, String region, String table, int of) {
        String prefix = startedPrefix(layout, account, region, table, of);
        var starts = new Started[of];
        for (int i = 0; i < of; i++) {
            int index = i;
            try (var in = s3.getObject(b -> b.bucket(layout.bucket()).key(prefix + index + ".json"))) {
                starts[i] = Json.mapper().readValue(in, Started.class);
            } catch (NoSuchKeyException e) {
                starts[i] = null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return starts;
    }

    ShardGroup group() {
        return group;
    }

    /**
     * The shards of {@code listed} in this group, after reading the vault's assignment (groups other
     * than 0; group 0 when it starts) or adding the new shards to it and writing it (group 0).
     */
    List<Shard> mine(String streamArn, List<Shard> listed, Instant listedAt) {
        if (group.index() != 0 || known == null) {
            read(); // group 0 too, once: a capture of it that starts again goes on from the names already given
        }
        Map<String, Integer> before = known != null && known.streamArn().equals(streamArn) ? known.groups() : Map.of();
        var byId = new HashMap<String, Shard>();
        listed.forEach(s -> byId.put(s.shardId(), s));
        var assigned = new HashMap<String, Integer>();
        for (Shard shard : listed) {
            assign(shard.shardId(), byId, before, assigned);
        }
        if (group.index() == 0 && !assigned.equals(before)) {
            known = new Assignment(streamArn, group.of(), listedAt, assigned);
            s3.putObject(
                    b -> b.bucket(layout.bucket()).key(key).contentType("application/json"),
                    RequestBody.fromBytes(Json.toBytes(known)));
        }
        return listed.stream()
                .filter(s -> assigned.get(s.shardId()) == group.index())
                .toList();
    }

    /** The shard's group: as the vault names it, else its parent's, else a hash of its id. */
    private int assign(String id, Map<String, Shard> byId, Map<String, Integer> before, Map<String, Integer> assigned) {
        Integer g = assigned.get(id);
        if (g != null) {
            return g;
        }
        g = before.get(id);
        if (g == null) {
            Shard shard = byId.get(id);
            String parent = shard == null ? null : shard.parentShardId();
            if (parent != null && (byId.containsKey(parent) || before.containsKey(parent))) {
                g = byId.containsKey(parent) ? assign(parent, byId, before, assigned) : before.get(parent);
            } else {
                g = Math.floorMod(id.hashCode(), group.of());
            }
        }
        if (byId.containsKey(id)) {
            assigned.put(id, g);
        }
        return g;
    }

    /** Reads the vault's assignment if it changed since the last read. */
    private void read() {
        try (var in = s3.getObject(b -> {
            b.bucket(layout.bucket()).key(key);
            if (etag != null) {
                b.ifNoneMatch(etag);
            }
        })) {
            known = Json.mapper().readValue(in, Assignment.class);
            etag = in.response().eTag();
        } catch (NoSuchKeyException e) {
            known = null;
            etag = null;
        } catch (S3Exception e) {
            if (e.statusCode() != 304) {
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
