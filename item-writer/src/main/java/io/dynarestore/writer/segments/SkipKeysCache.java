package io.dynarestore.writer.segments;

import io.dynarestore.contracts.work.SegmentDispatched.DataFile;
import io.dynarestore.core.pitr.SkipKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The skip sets of the restores this writer is working on: loaded once per restore, not per
 * segment, and at most {@code capacity} of them held (16 bytes per key each).
 */
final class SkipKeysCache {

    private final S3Client s3;
    private final Map<String, SkipKeys> cache;

    SkipKeysCache(S3Client s3, int capacity) {
        this.s3 = s3;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, SkipKeys> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized SkipKeys get(DataFile file) {
        String id = file.bucket() + "/" + file.key();
        SkipKeys keys = cache.get(id);
        if (keys == null) {
            keys = SkipKeys.read(s3.getObject(b -> b.bucket(file.bucket()).key(file.key())), file.itemCount());
            cache.put(id, keys);
        }
        return keys;
    }
}
