package io.dynarestore.writer.segments;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.work.SegmentDispatched;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Object Mother of segment work and items for the writer's unit tests: table {@code t} keyed by {@code pk} (S). */
final class SegmentWork {

    static final SegmentDispatched.WriteTarget TARGET =
            new SegmentDispatched.WriteTarget("000000000000", "us-east-1", "t", List.of("pk"), List.of("S"));
    static final SegmentDispatched.DataFile FILE =
            new SegmentDispatched.DataFile("vault", "data/0.json.gz", 3, "md5", "DYNAMODB_JSON");

    private SegmentWork() {}

    static SegmentDispatched base() {
        return SegmentDispatched.of("r1", 0, 1, FILE, TARGET);
    }

    static SegmentDispatched delta(boolean applyDeletes) {
        return SegmentDispatched.of(
                "r1", 0, 1, SegmentDispatched.Role.DELTA, FILE, TARGET, null, applyDeletes, null, true);
    }

    static SegmentDispatched records(String pkBeginsWith) {
        var filter = new Scope.Records(
                List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of(pkBeginsWith)), null)), null);
        return SegmentDispatched.of("r1", 0, 1, SegmentDispatched.Role.DELTA, FILE, TARGET, null, true, filter, true);
    }

    static Map<String, AttributeValue> item(String pk, String value) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS(value));
    }

    static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }
}
