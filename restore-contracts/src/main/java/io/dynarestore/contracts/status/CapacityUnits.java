package io.dynarestore.contracts.status;

/**
 * Provisioned throughput of a table ({@code index} is {@code null}) or of one of its global
 * secondary indexes.
 */
public record CapacityUnits(String index, long readCapacityUnits, long writeCapacityUnits) {

    public static CapacityUnits table(long read, long write) {
        return new CapacityUnits(null, read, write);
    }

    /** The table itself, not an index. */
    public boolean isTable() {
        return index == null;
    }

    /** What this names, in words: {@code table} or {@code index <name>}. */
    public String what() {
        return index == null ? "table" : "index " + index;
    }
}
