package io.dynarestore.core.kafka;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.status.RestoreEvent;
import io.dynarestore.contracts.work.SegmentWork;
import tools.jackson.core.JacksonException;

/** Reads messages of the status, protection and work streams; a message that is not one yields {@code null}. */
public final class Messages {

    private Messages() {}

    public static RestoreEvent statusEvent(byte[] value) {
        return read(value, RestoreEvent.class);
    }

    public static ProtectionEvent protectionEvent(byte[] value) {
        return read(value, ProtectionEvent.class);
    }

    public static SegmentWork segmentWork(byte[] value) {
        return read(value, SegmentWork.class);
    }

    private static <T> T read(byte[] value, Class<T> type) {
        if (value == null) {
            return null;
        }
        try {
            return Json.mapper().readValue(value, type);
        } catch (JacksonException | IllegalArgumentException e) {
            return null;
        }
    }
}
