package io.ferry.identity.model;

/**
 * The roles Ferry's services check ({@code @RolesAllowed}), named once. Ferry's dev issuer grants them as scopes
 * of the same names; other credentials get them through {@code ferry.identity.grants}.
 */
public final class FerryRoles {

    /** transfer-scheduler: reads the jobs of the caller's VO. */
    public static final String TRANSFER_READ = "transfer:read";
    /** transfer-scheduler: submits and cancels the jobs of the caller's VO, and reads them. */
    public static final String TRANSFER_SUBMIT = "transfer:submit";
    /** transfer-scheduler: every VO's jobs, the SE catalogue, links and shares. */
    public static final String TRANSFER_ADMIN = "transfer:admin";
    /** tcp-profiles: the hosts of the caller's site. */
    public static final String PROFILES_WRITE = "profiles:write";
    /** tcp-profiles: every site, global profiles and rules. */
    public static final String PROFILES_ADMIN = "profiles:admin";
    /** handle-resolver: handles whose HS_ADMIN values grant the caller. */
    public static final String HANDLES_WRITE = "handles:write";
    /** handle-resolver: every handle, prefixes, the SE catalogue copy. */
    public static final String HANDLES_ADMIN = "handles:admin";
    /** rate-aggregator: ingests records and measurements (the scheduler's service token). */
    public static final String RATES_WRITE = "rates:write";

    private FerryRoles() {
    }
}
