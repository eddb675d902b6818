package io.dynarestore.testkit;

/** The credential restore-api's {@code local} profile accepts (its API key, unless {@code API_KEY} overrides it). */
public final class LocalApi {

    public static final String HEADER = "X-Api-Key";
    public static final String KEY = "dynarestore-local-key";

    private LocalApi() {}
}
