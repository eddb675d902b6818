package io.dynarestore.protector.backups;

import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The segments of one partition of {@code restore.protection.scans} that run in this replica, by
 * the offset of their request. Rule: the offset to commit is that of the oldest segment still
 * running (or, with none running, the one after the last request read), so that no request is
 * committed before its segment ended and a request read again after a crash is one not finished.
 *
 * @param <S> what runs for a request
 */
final class PartitionSegments<S> {

    private final TreeMap<Long, Running<S>> running = new TreeMap<>();
    private long next = -1;
    private long committed = -1;

    /** A request read at {@code offset} that needs nothing run (skipped, dead-lettered). */
    void passed(long offset) {
        next = Math.max(next, offset + 1);
    }

    /** A request read at {@code offset}, whose segment {@code key} now runs as {@code segment}. */
    void started(long offset, String key, S segment) {
        passed(offset);
        running.put(offset, new Running<>(key, segment));
    }

    /** Whether segment {@code key} runs here already. */
    boolean runs(String key) {
        return running.values().stream().anyMatch(r -> r.key().equals(key));
    }

    /** Forgets the segments that {@code ended} says have ended. */
    void reap(Predicate<S> ended) {
        running.values().removeIf(r -> ended.test(r.segment()));
    }

    int size() {
        return running.size();
    }

    List<S> all() {
        return running.values().stream().map(Running::segment).toList();
    }

    /** The offset to commit, if it moved past the last one {@link #committed}. */
    OptionalLong toCommit() {
        long at = running.isEmpty() ? next : running.firstKey();
        return at > committed ? OptionalLong.of(at) : OptionalLong.empty();
    }

    /** The broker took {@code at}: it is not committed again. */
    void committed(long at) {
        committed = Math.max(committed, at);
    }

    private record Running<S>(String key, S segment) {}
}
