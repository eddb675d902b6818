/**
 * AWS access: clients per account and region (assumed roles, endpoints), and the scans of AWS
 * answers the services share.
 */
package io.dynarestore.core.aws;
