package io.dynarestore.api.restores;

import java.util.Optional;

/** The restores of a table's drills (ADR 0044), as restore-api's view of {@code restore.status} knows them. */
public interface DrillLookup {

    /** The id prefix the protector gives a drill's restore. */
    String PREFIX = "drill-";

    /** The latest drill restore of the table (the one asked for last), if the view holds one. */
    Optional<RestoreSummary> lastDrill(String account, String region, String table);
}
