package io.dynarestore.contracts;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of requests and events. Dates are ISO-8601 strings, absent values are
 * omitted, unknown properties are ignored by readers (forward compatibility; requests are
 * checked against their JSON Schema before they are read, which rejects unknown properties).
 */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .changeDefaultPropertyInclusion(incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL)
                    .withContentInclusion(JsonInclude.Include.NON_NULL))
            .build();

    private Json() {}

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static byte[] toBytes(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    public static String toString(Object value) {
        return MAPPER.writeValueAsString(value);
    }
}
