package io.ferry.stack;

import java.util.List;

/** One of Ferry's four services as the local stack runs it. */
public record ServiceSpec(String name, int defaultPort, String database, String configPrefix, String serviceScopes) {

    public static final ServiceSpec SCHEDULER = new ServiceSpec("transfer-scheduler", 8081, "ferry_scheduler", "scheduler", "service rates:write");
    public static final ServiceSpec PROFILES = new ServiceSpec("tcp-profiles", 8082, "ferry_profiles", "profiles", "service");
    public static final ServiceSpec RESOLVER = new ServiceSpec("handle-resolver", 8083, "ferry_resolver", "resolver", "service");
    public static final ServiceSpec AGGREGATOR = new ServiceSpec("rate-aggregator", 8084, "ferry_rates", "aggregator", "service");

    public static final List<ServiceSpec> ALL = List.of(SCHEDULER, PROFILES, RESOLVER, AGGREGATOR);

    /** The environment variable a service reads its own service token from. */
    public String serviceTokenVariable() {
        return "FERRY_" + configPrefix.toUpperCase() + "_SERVICE_TOKEN";
    }
}
