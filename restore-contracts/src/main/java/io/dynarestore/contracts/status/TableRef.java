package io.dynarestore.contracts.status;

/** A DynamoDB table of an account and region. */
public record TableRef(String account, String region, String tableName) {}
