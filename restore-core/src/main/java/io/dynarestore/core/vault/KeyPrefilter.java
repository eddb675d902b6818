package io.dynarestore.core.vault;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Which lines a selective {@link DataFileReader} may pass over unparsed, decided by the line's key
 * alone: {@link #mayPass} is {@code false} only where the line's reader would skip the line whatever
 * else it holds (a key that no key filter matches, a key a later change supersedes).
 *
 * @param member the object that holds the key: {@code Item} in a full export, {@code Keys} in changes
 * @param keyNames the table's key attributes, partition key first
 * @param test whether a line with this key may be wanted
 */
public record KeyPrefilter(String member, List<String> keyNames, Test test) {

    /** The test of a line's key. */
    @FunctionalInterface
    public interface Test {
        boolean mayPass(Map<String, AttributeValue> key);
    }

    /** A prefilter of a full export's items. */
    public static KeyPrefilter ofItems(List<String> keyNames, Test test) {
        return new KeyPrefilter("Item", keyNames, test);
    }

    /** A prefilter of change lines, by their {@code Keys}. */
    public static KeyPrefilter ofChanges(List<String> keyNames, Test test) {
        return new KeyPrefilter("Keys", keyNames, test);
    }
}
